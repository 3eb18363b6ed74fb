import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Space, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { fileUrls, type DocumentPurpose } from '../api/files.ts';
import { uploadError, uploadHeaders } from './upload.ts';

export const DOCUMENT_ACCEPT = 'application/pdf,image/png,image/jpeg';
const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

/** What every document upload sends and where, refusing a file over the size limit before sending it. */
function useDocumentUpload(purpose: DocumentPurpose) {
  const { message } = App.useApp();
  return {
    message,
    props: {
      name: 'file',
      accept: DOCUMENT_ACCEPT,
      action: fileUrls.uploadDocument(purpose),
      headers: uploadHeaders(),
      beforeUpload: (file: File) => {
        if (file.size > DOCUMENT_MAX_BYTES) {
          void message.error('文件不能超过10MB');
          return Upload.LIST_IGNORE;
        }
        return true;
      },
    },
  };
}

/** Private PDF or picture uploads (registration attachments, transfer vouchers); the list keeps the server's file URIs. */
export function DocumentUpload({
  purpose,
  files,
  onChange,
  max = 5,
}: {
  purpose: DocumentPurpose;
  files: UploadFile[];
  onChange: (f: UploadFile[]) => void;
  max?: number;
}) {
  const { message, props } = useDocumentUpload(purpose);
  return (
    <Upload
      {...props}
      fileList={files}
      maxCount={max}
      onChange={({ file, fileList }) => {
        if (file.status === 'error') void message.error(uploadError(file.response), 5);
        onChange(fileList.filter((f) => f.status !== 'error'));
      }}
    >
      <Button icon={<UploadOutlined />}>上传文件（PDF、PNG或JPEG，10MB以内）</Button>
    </Upload>
  );
}

/** The server's file URIs of the finished uploads. */
export const uploadedUris = (files: UploadFile[]) =>
  files.flatMap((f) => (f.status === 'done' && f.response?.data?.fileUri ? [f.response.data.fileUri as string] : []));

/**
 * One private PDF or picture as a form field (a registration form's file field): its value is the file's URI, shown
 * as a link once uploaded, replaced by uploading again, cleared by 移除.
 */
export function DocumentField({
  purpose,
  value,
  onChange,
  label,
}: {
  purpose: DocumentPurpose;
  value?: string | null;
  onChange?: (uri: string | null) => void;
  label: string;
}) {
  const { message, props } = useDocumentUpload(purpose);
  const [uploading, setUploading] = useState(false);
  return (
    <Space wrap>
      {value && (
        <a href={fileUrls.download(value)} target="_blank" rel="noopener noreferrer">
          已上传，点击查看
        </a>
      )}
      <Upload
        {...props}
        showUploadList={false}
        onChange={({ file }) => {
          setUploading(file.status === 'uploading');
          if (file.status === 'error') void message.error(uploadError(file.response), 5);
          if (file.status === 'done' && file.response?.data?.fileUri) onChange?.(file.response.data.fileUri as string);
        }}
      >
        <Button icon={<UploadOutlined />} loading={uploading} aria-label={`上传${label}`}>
          {value ? '重新上传' : '上传文件（PDF、PNG或JPEG，10MB以内）'}
        </Button>
      </Upload>
      {value && (
        <Button type="link" danger onClick={() => onChange?.(null)}>
          移除
        </Button>
      )}
    </Space>
  );
}
