import { DeleteOutlined, LoadingOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Image, Space, Upload } from 'antd';
import { useState } from 'react';
import { avatarUrl } from '../../common/files.ts';
import { IMAGE_ACCEPT, IMAGE_MAX_BYTES, imageUploadUrl, uploadError, uploadHeaders, type ImagePurpose } from '../../common/upload.ts';

interface ImageUploadProps {
  /** The uploaded image's fileUri (a form control's value). */
  value?: string | null;
  onChange?: (fileUri: string | null) => void;
  purpose: ImagePurpose;
  disabled?: boolean;
  /** Preview size in pixels. */
  width?: number;
  height?: number;
  hint?: string;
}

/** An image field: preview, upload (multipart field `file`) and removal; the value is the server's fileUri. */
export function ImageUpload({ value, onChange, purpose, disabled, width = 120, height = 80, hint }: ImageUploadProps) {
  const { message } = App.useApp();
  const [uploading, setUploading] = useState(false);
  // Undefined rather than false, so a disabled form around the field still disables it.
  const off = disabled || uploading || undefined;
  return (
    // Wrapping: on a phone the button and its hint go under the preview instead of past the card's edge.
    <Space align="start" size={12} wrap>
      <div className="admin-image-box" style={{ width, height, maxWidth: '100%' }}>
        {value ? <Image src={avatarUrl(value)} alt="" width={width} height={height} style={{ objectFit: 'contain' }} /> : <span>暂无图片</span>}
      </div>
      <Space direction="vertical" size={4}>
        <Space>
          <Upload
            name="file"
            accept={IMAGE_ACCEPT}
            action={imageUploadUrl(purpose)}
            headers={uploadHeaders()}
            showUploadList={false}
            disabled={off}
            beforeUpload={(file) => {
              if (file.size > IMAGE_MAX_BYTES) {
                void message.error('图片不能超过2MB');
                return Upload.LIST_IGNORE;
              }
              return true;
            }}
            onChange={({ file }) => {
              setUploading(file.status === 'uploading');
              if (file.status === 'done') onChange?.(file.response.data.fileUri);
              if (file.status === 'error') void message.error(uploadError(file.response), 5);
            }}
          >
            <Button icon={uploading ? <LoadingOutlined /> : <UploadOutlined />} disabled={off}>
              {value ? '更换图片' : '上传图片'}
            </Button>
          </Upload>
          {value && !disabled && (
            <Button icon={<DeleteOutlined />} onClick={() => onChange?.(null)}>
              移除
            </Button>
          )}
        </Space>
        <span className="admin-hint">{hint ?? '支持PNG、JPG、GIF、WebP，不超过2MB'}</span>
      </Space>
    </Space>
  );
}
