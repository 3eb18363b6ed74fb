import { DownloadOutlined } from '@ant-design/icons';
import { CLIENT_NOT_PUBLISHED, CLIENT_PACKAGES as CLIENT_PACKAGE_FILES, formatSize, type ClientPlatform, type ClientStatus } from '@contest/shared';
import { Alert, Button, Modal, Space, Steps, Typography, message } from 'antd';
import { useEffect, useState } from 'react';
import { clientApi } from '../api/desktop-releases.ts';
import { ERROR_TOAST_SECONDS } from '../common/http.ts';
import { formatDay } from '../common/time.ts';

export type ClientOs = ClientPlatform;

/** Spec §7: where the client packages are downloaded. */
export const CLIENT_PACKAGES: Record<ClientOs, string> = {
  win: `/profile/${CLIENT_PACKAGE_FILES.win}`,
  mac: `/profile/${CLIENT_PACKAGE_FILES.mac}`,
};
const OS_NAMES: Record<ClientOs, string> = { win: 'Windows', mac: 'Mac' };
/** The double-click launcher in each package (desktop/build.ts): spec §2.4's "exe" step. */
export const CLIENT_LAUNCHERS: Record<ClientOs, string> = { win: '启动客户端.cmd', mac: '启动客户端.command' };

/** Spec §5: the message on an operating system with no client. */
export const UNKNOWN_OS_TEXT = '目前只提供Windows和Mac客户端';

/**
 * Which packages exist, asked when the dialog opens; null until known. A failed question leaves it unknown: the links
 * are offered, and the server's own page says so if a package is missing.
 */
function useClientStatus(open: boolean): ClientStatus | null {
  const [status, setStatus] = useState<ClientStatus | null>(null);
  useEffect(() => {
    if (!open) return;
    let live = true;
    clientApi.status().then(
      (s) => live && setStatus(s),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [open]);
  return status;
}

const published = (status: ClientStatus | null, os: ClientOs) => status?.[os]?.available !== false;

/** Windows or Mac from the browser's user agent (and platform); null for anything else, phones and tablets included. */
export function detectClientOs(userAgent: string, platform = ''): ClientOs | null {
  if (/Android|iPhone|iPad|iPod|Mobile/i.test(userAgent)) return null;
  if (/Windows|Win32|Win64|WOW64/i.test(userAgent) || /^Win/i.test(platform)) return 'win';
  if (/Macintosh|Mac OS X/i.test(userAgent) || /^Mac/i.test(platform)) return 'mac';
  return null;
}

const browserOs = () => (typeof navigator === 'undefined' ? null : detectClientOs(navigator.userAgent, navigator.platform));

/**
 * Spec §2.4: in a browser that cannot download works, the 'download client' dialog: why, and the three steps
 * (download the package, unzip it with no install, double-click the launcher: the packages hold a `.cmd`/`.command`
 * launcher beside a Node runtime rather than one exe).
 */
export function ClientDialog({ open, onClose, os = browserOs() }: { open: boolean; onClose: () => void; os?: ClientOs | null }) {
  const status = useClientStatus(open);
  const missing = <Alert type="warning" showIcon message={CLIENT_NOT_PUBLISHED} data-testid="client-missing" style={{ marginTop: 4 }} />;
  const offered = (Object.keys(CLIENT_PACKAGES) as ClientOs[]).filter((k) => published(status, k));
  const download = os ? (
    published(status, os) ? (
      <Space wrap>
        <Button type="primary" icon={<DownloadOutlined />} href={CLIENT_PACKAGES[os]} download>
          下载{OS_NAMES[os]}客户端
        </Button>
        {status?.[os]?.size && status[os].updatedAt ? (
          <Typography.Text type="secondary" data-testid="client-size">
            {formatSize(status[os].size)} · 更新于 {formatDay(status[os].updatedAt)}
          </Typography.Text>
        ) : null}
      </Space>
    ) : (
      missing
    )
  ) : (
    <Space direction="vertical" size={4}>
      <Button type="primary" icon={<DownloadOutlined />} onClick={() => void message.warning(UNKNOWN_OS_TEXT, ERROR_TOAST_SECONDS)}>
        下载客户端
      </Button>
      <Typography.Text type="warning" data-testid="unknown-os">
        {UNKNOWN_OS_TEXT}
      </Typography.Text>
      {offered.length ? (
        <Space size={16}>
          {offered.map((k) => (
            <a key={k} href={CLIENT_PACKAGES[k]} download>
              {OS_NAMES[k]}版
            </a>
          ))}
        </Space>
      ) : (
        missing
      )}
    </Space>
  );
  return (
    <Modal title="下载客户端" open={open} onCancel={onClose} footer={<Button onClick={onClose}>关闭</Button>} destroyOnHidden>
      <Typography.Paragraph>
        作品等大文件无法在当前浏览器中下载，请使用下载客户端：它会把文件按赛题和队伍整理到您电脑上的文件夹中，并支持暂停和断点续传。
      </Typography.Paragraph>
      <Steps
        direction="vertical"
        size="small"
        current={-1}
        items={[
          { title: '下载客户端安装包', description: download },
          { title: '解压安装包', description: '解压到任意文件夹即可，无需安装。' },
          {
            title: `双击运行启动程序“${CLIENT_LAUNCHERS[os ?? 'win']}”`,
            description: '客户端会打开平台并自动登录，之后的下载都由客户端完成。',
          },
        ]}
      />
    </Modal>
  );
}
