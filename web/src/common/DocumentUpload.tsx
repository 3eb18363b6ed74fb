import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Upload, type UploadFile } from 'antd';
import { fileUrls, type DocumentPurpose } from '../api/file.ts';
import { uploadError, uploadHeaders } from './upload.ts';

export const DOCUMENT_ACCEPT = 'application/pdf,image/png,image/jpeg';

/** Private PDF or picture uploads (registration attachments, transfer vouchers); the list keeps the server's file URIs. */
export function DocumentUpload({ purpose, files, onChange, max = 5 }: { purpose: DocumentPurpose; files: UploadFile[]; onChange: (f: UploadFile[]) => void; max?: number }) {
  const { message } = App.useApp();
  return (
    <Upload
      name="file"
      accept={DOCUMENT_ACCEPT}
      action={fileUrls.uploadDocument(purpose)}
      headers={uploadHeaders()}
      fileList={files}
      maxCount={max}
      beforeUpload={(file) => {
        if (file.size > 10 * 1024 * 1024) {
          void message.error('文件不能超过10MB');
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
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
export const uploadedUris = (files: UploadFile[]) => files.flatMap((f) => (f.status === 'done' && f.response?.data?.fileUri ? [f.response.data.fileUri as string] : []));

