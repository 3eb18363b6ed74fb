import { formatSize } from '@contest/shared';
import { CloseOutlined, DownloadOutlined } from '@ant-design/icons';
import { Button, Progress, Space, Tooltip, type ButtonProps } from 'antd';
import type { ReactNode } from 'react';
import { cancelDownload, startDownload, useDownload } from './useDownload.ts';

/**
 * A download through the resumable helper: the button while idle; while downloading, a progress bar (the bytes
 * received when the size is unknown) and a way to cancel. `downloadKey` names the download, so one file is not
 * fetched twice at once.
 */
export function DownloadButton({
  url,
  downloadKey = url,
  children = '下载',
  width = 160,
  ...button
}: { url: string; downloadKey?: string; children?: ReactNode; width?: number } & Omit<ButtonProps, 'onClick' | 'children'>) {
  const state = useDownload(downloadKey);
  if (!state) {
    return (
      <Button type="link" size="small" icon={<DownloadOutlined />} {...button} onClick={() => void startDownload(downloadKey, url)}>
        {children}
      </Button>
    );
  }
  return (
    <Space size={4} style={{ width }} data-testid="download-progress">
      <Progress
        size="small"
        status="active"
        style={{ width: width - 28, margin: 0 }}
        percent={state.percent ?? 0}
        format={(p) => (state.percent === null ? formatSize(state.received) : `${p}%`)}
      />
      <Tooltip title="取消下载">
        <Button type="text" size="small" icon={<CloseOutlined />} aria-label="取消下载" onClick={() => cancelDownload(downloadKey)} />
      </Tooltip>
    </Space>
  );
}
