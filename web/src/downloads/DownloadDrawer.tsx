/**
 * The download drawer of spec §2.4: a floating button with a hover label opens it; tabs downloading, downloaded and
 * download path. Loaded lazily by `DownloadLauncher`, with the store, the shells and the manager.
 */
import {
  DOWNLOAD_LIST_FOOTER,
  batchActions,
  formatCompletionTime,
  formatRemaining,
  formatSize,
  formatSpeed,
  overallProgress,
  visibleTasks,
  type DownloadEvent,
  type DownloadLists,
  type DownloadState,
  type DownloadTask,
} from '@contest/shared';
import { CaretRightOutlined, CloseOutlined, DownloadOutlined, FolderOpenOutlined, PauseOutlined } from '@ant-design/icons';
import { Alert, Button, Drawer, Empty, FloatButton, Input, List, Popconfirm, Progress, Space, Tabs, Tag, Tooltip, Typography, message } from 'antd';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { ClientDialog } from './ClientDialog.tsx';
import { pageManager } from './manager.ts';
import { BrowserShell } from './shells/browserShell.ts';
import { DesktopShell } from './shells/desktopShell.ts';
import { pageShell } from './shells/index.ts';
import type { DownloadShell, ShellStatus } from './shells/types.ts';
import { dispatchDownloads, useDownloadLists } from './store.ts';

export const STATE_TEXT: Record<DownloadState, string> = { waiting: '等待中', progressing: '下载中', paused: '已暂停' };
const STATE_COLOR: Record<DownloadState, string> = { waiting: 'default', progressing: 'processing', paused: 'warning' };
export const DRAWER_LABEL = '下载管理';

type Dispatch = (event: DownloadEvent) => Promise<unknown>;

const percentOf = (t: DownloadTask) => (t.totalSize > 0 ? Math.min(100, Math.floor((t.receivedSize / t.totalSize) * 100)) : 0);
const sizeOf = (t: DownloadTask) => `${formatSize(t.receivedSize)} / ${t.totalSize > 0 ? formatSize(t.totalSize) : '--'}`;

function Footer({ truncated }: { truncated: boolean }) {
  return truncated ? (
    <Typography.Text type="secondary" data-testid="download-footer">
      {DOWNLOAD_LIST_FOOTER}
    </Typography.Text>
  ) : null;
}

function DownloadingItem({ task, dispatch }: { task: DownloadTask; dispatch: Dispatch }) {
  const ref = { userId: task.userId, key: task.key };
  const paused = task.state === 'paused';
  return (
    <List.Item
      data-testid="downloading-item"
      actions={[
        paused ? (
          <Tooltip title="继续" key="resume">
            <Button type="text" size="small" icon={<CaretRightOutlined />} aria-label="继续" onClick={() => void dispatch({ type: 'resume', ...ref })} />
          </Tooltip>
        ) : (
          <Tooltip title="暂停" key="pause">
            <Button type="text" size="small" icon={<PauseOutlined />} aria-label="暂停" onClick={() => void dispatch({ type: 'pause', ...ref })} />
          </Tooltip>
        ),
        <Tooltip title="取消" key="cancel">
          <Button type="text" size="small" danger icon={<CloseOutlined />} aria-label="取消" onClick={() => void dispatch({ type: 'cancel', ...ref })} />
        </Tooltip>,
      ]}
    >
      <div style={{ width: '100%', minWidth: 0 }}>
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Text strong ellipsis={{ tooltip: task.fileName }} style={{ maxWidth: 300 }}>
            {task.fileName}
          </Typography.Text>
          <Tag color={STATE_COLOR[task.state]}>{STATE_TEXT[task.state]}</Tag>
        </Space>
        <Typography.Text type="secondary" ellipsis={{ tooltip: task.savePath }} style={{ display: 'block', fontSize: 12 }}>
          {task.savePath}
        </Typography.Text>
        <Progress percent={percentOf(task)} size="small" status={task.state === 'progressing' ? 'active' : 'normal'} style={{ margin: 0 }} />
        <Space size={12} style={{ fontSize: 12, color: 'rgba(0,0,0,.45)' }}>
          <span>{sizeOf(task)}</span>
          {task.state === 'progressing' && <span>{formatSpeed(task.speed)}</span>}
          {task.state === 'progressing' && <span>剩余 {formatRemaining(task)}</span>}
        </Space>
      </div>
    </List.Item>
  );
}

function DownloadedItem({ task }: { task: DownloadTask }) {
  return (
    <List.Item data-testid="downloaded-item">
      <div style={{ width: '100%', minWidth: 0 }}>
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Text strong ellipsis={{ tooltip: task.fileName }} style={{ maxWidth: 300 }}>
            {task.fileName}
          </Typography.Text>
          <Typography.Text type="secondary">{formatSize(task.totalSize || task.receivedSize)}</Typography.Text>
        </Space>
        <Typography.Text type="secondary" ellipsis={{ tooltip: task.savePath }} style={{ display: 'block', fontSize: 12 }}>
          {task.savePath}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          完成时间：{formatCompletionTime(task.date)}
        </Typography.Text>
      </div>
    </List.Item>
  );
}

/** What stops the shell from downloading, with the click that fixes it. */
function ShellProblem({ status, onFix }: { status: ShellStatus; onFix: () => void }) {
  if (status.ready || !status.problem) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 12 }}
      message={status.problem}
      action={
        status.action && (
          <Button size="small" type="primary" onClick={onFix}>
            {status.action}
          </Button>
        )
      }
    />
  );
}

export interface DownloadPanelProps {
  userId: number;
  lists: DownloadLists;
  shell: DownloadShell | null;
  /** Where user actions go (the store, by default). */
  dispatch?: Dispatch;
  onShowClient?: () => void;
}

function useShellStatus(shell: DownloadShell | null): ShellStatus | null {
  const subscribe = useCallback((notify: () => void) => shell?.onStatus(notify) ?? (() => undefined), [shell]);
  return useSyncExternalStore(subscribe, () => shellStatusSnapshot(shell));
}
// useSyncExternalStore needs the same object while nothing changed.
const snapshots = new WeakMap<DownloadShell, ShellStatus>();
function shellStatusSnapshot(shell: DownloadShell | null): ShellStatus | null {
  if (!shell) return null;
  const next = shell.status();
  const prev = snapshots.get(shell);
  if (prev && (Object.keys(next) as (keyof ShellStatus)[]).every((k) => prev[k] === next[k])) return prev;
  snapshots.set(shell, next);
  return next;
}

function PathTab({ shell, status, onShowClient }: { shell: DownloadShell | null; status: ShellStatus | null; onShowClient?: () => void }) {
  const [root, setRoot] = useState('');
  const [saving, setSaving] = useState(false);
  if (!shell || !status) {
    return (
      <Space direction="vertical">
        <Typography.Text>当前浏览器无法把文件保存到您选择的文件夹，请使用下载客户端下载。</Typography.Text>
        <Button type="primary" icon={<DownloadOutlined />} onClick={onShowClient}>
          下载客户端
        </Button>
      </Space>
    );
  }
  const fix = () => void shell.prepare();
  if (shell instanceof DesktopShell) {
    const change = async () => {
      setSaving(true);
      try {
        await shell.changeRoot(root.trim());
        setRoot('');
        void message.success('下载目录已修改，之后添加的任务将保存到新目录');
      } catch (err) {
        void message.error((err as Error).message);
      } finally {
        setSaving(false);
      }
    };
    return (
      <Space direction="vertical" style={{ width: '100%' }}>
        <ShellProblem status={status} onFix={fix} />
        <Typography.Text>下载客户端的下载目录：</Typography.Text>
        <Typography.Text code copyable={Boolean(status.rootLabel)} data-testid="download-root">
          {status.rootLabel ?? '未连接'}
        </Typography.Text>
        <Space.Compact style={{ width: '100%' }}>
          <Input placeholder="新的下载目录（绝对路径）" value={root} onChange={(e) => setRoot(e.target.value)} disabled={!status.ready} />
          <Button type="primary" loading={saving} disabled={!status.ready || !root.trim()} onClick={() => void change()}>
            修改
          </Button>
        </Space.Compact>
      </Space>
    );
  }
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <ShellProblem status={status} onFix={fix} />
      <Typography.Text>下载的文件按赛题和队伍分文件夹保存到：</Typography.Text>
      <Space>
        <FolderOpenOutlined />
        <Typography.Text strong data-testid="download-root">
          {status.rootLabel ?? '尚未选择'}
        </Typography.Text>
      </Space>
      {shell instanceof BrowserShell && (
        <Button icon={<FolderOpenOutlined />} onClick={() => void shell.chooseFolder()}>
          {status.rootLabel ? '选择其他文件夹' : '选择文件夹'}
        </Button>
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        未完成的任务继续时写入当前选择的文件夹。
      </Typography.Text>
    </Space>
  );
}

/** The drawer's content: the three tabs, with the batch buttons, the overall progress and the lists. */
export function DownloadPanel({ userId, lists, shell, dispatch = (e) => dispatchDownloads(e), onShowClient }: DownloadPanelProps) {
  const status = useShellStatus(shell);
  const actions = batchActions(lists.downloading);
  const downloading = visibleTasks(lists.downloading);
  const downloaded = visibleTasks(lists.downloaded);
  const progress = overallProgress(lists);
  const batch = (type: 'pauseAll' | 'resumeAll' | 'cancelAll') => void dispatch({ type, userId });
  const tabs: { key: string; label: ReactNode; children: ReactNode }[] = [
    {
      key: 'downloading',
      label: `正在下载（${lists.downloading.length}）`,
      children: (
        <>
          {status && <ShellProblem status={status} onFix={() => void shell?.prepare()} />}
          <Space wrap style={{ marginBottom: 12 }}>
            <Button icon={<PauseOutlined />} disabled={!actions.pauseAll} onClick={() => batch('pauseAll')}>
              全部暂停
            </Button>
            <Button icon={<CaretRightOutlined />} disabled={!actions.resumeAll} onClick={() => batch('resumeAll')}>
              全部继续
            </Button>
            <Popconfirm title="确定取消全部下载任务吗？" okText="确定" cancelText="取消" onConfirm={() => batch('cancelAll')} disabled={!actions.cancelAll}>
              <Button danger icon={<CloseOutlined />} disabled={!actions.cancelAll}>
                全部取消
              </Button>
            </Popconfirm>
          </Space>
          <div style={{ marginBottom: 12 }} data-testid="overall-progress" data-percent={progress}>
            <Typography.Text type="secondary">
              总进度：已完成 {lists.downloaded.length} / {lists.downloaded.length + lists.downloading.length}
            </Typography.Text>
            <Progress percent={progress} />
          </div>
          <List
            dataSource={downloading.tasks as DownloadTask[]}
            rowKey={(t) => t.key}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有正在下载的任务" /> }}
            renderItem={(t) => <DownloadingItem task={t} dispatch={dispatch} />}
            footer={downloading.truncated ? <Footer truncated /> : undefined}
          />
        </>
      ),
    },
    {
      key: 'downloaded',
      label: `已下载（${lists.downloaded.length}）`,
      children: (
        <List
          dataSource={downloaded.tasks as DownloadTask[]}
          rowKey={(t) => t.key}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有下载完成的文件" /> }}
          renderItem={(t) => <DownloadedItem task={t} />}
          footer={downloaded.truncated ? <Footer truncated /> : undefined}
        />
      ),
    },
    { key: 'path', label: '下载路径', children: <PathTab shell={shell} status={status} onShowClient={onShowClient} /> },
  ];
  return <Tabs items={tabs} />;
}

export interface DownloadCenterProps {
  userId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  clientDialog: boolean;
  onClientDialogChange: (open: boolean) => void;
}

/** The floating button, the drawer and the download client dialog; starts the page's manager. */
export default function DownloadCenter({ userId, open, onOpenChange, clientDialog, onClientDialogChange }: DownloadCenterProps) {
  const shell = useMemo(() => pageShell(userId), [userId]);
  const lists = useDownloadLists(userId);
  useEffect(() => {
    if (shell) pageManager(userId, shell);
  }, [userId, shell]);
  // Spec §4: opening the panel turns the user's progressing tasks back to waiting (the manager re-marks the ones it runs).
  useEffect(() => {
    if (open) void dispatchDownloads({ type: 'openPanel', userId });
  }, [open, userId]);
  const active = lists.downloading.filter((t) => t.state !== 'paused').length;
  return (
    <>
      <FloatButton
        icon={<DownloadOutlined />}
        type={active ? 'primary' : 'default'}
        tooltip={DRAWER_LABEL}
        aria-label={DRAWER_LABEL}
        badge={{ count: lists.downloading.length, overflowCount: 99 }}
        // Idle, it steps back (half seen) so that what it floats over can be read; with tasks it is in full sight.
        style={{ insetInlineEnd: 16, bottom: 16, opacity: lists.downloading.length ? 1 : 0.55 }}
        onClick={() => onOpenChange(true)}
        data-testid="download-float"
      />
      <Drawer title={DRAWER_LABEL} open={open} width={560} onClose={() => onOpenChange(false)}>
        <DownloadPanel userId={userId} lists={lists} shell={shell} onShowClient={() => onClientDialogChange(true)} />
      </Drawer>
      <ClientDialog open={clientDialog} onClose={() => onClientDialogChange(false)} />
    </>
  );
}
