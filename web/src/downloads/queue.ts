/**
 * What pages call to download files through the manager: one task per file, saved under the shell's root in the
 * folders the input's `dir` names (spec §3). Opens the drawer; in a browser that cannot write files, the download
 * client dialog instead.
 */
import { DownloadPathError, createTask, type DownloadTask, type TaskInput } from '@contest/shared';
import { message } from 'antd';
import { fetchCurrentUser } from '../common/auth.ts';
import { ERROR_TOAST_SECONDS, HTTP_TEXT } from '../common/http.ts';
import { downloadUser, requestDrawer } from './bus.ts';
import { pageManager } from './manager.ts';
import { pageShell } from './shells/index.ts';
import { dispatchDownloads } from './store.ts';

/** A folder name from free text (a question title, a team name): no separators, no commas (they split `dir`). */
export function folderName(text: string, fallback = '未命名'): string {
  const name = text
    .replace(/[\\/:*?"<>|,\u0000-\u001f]+/g, '_')
    .trim()
    .replace(/[. ]+$/, '');
  return name && !/^\.+$/.test(name) ? name : fallback;
}

/** `dir` of a task input from folder names, each made safe. */
export const dirOf = (...names: string[]) => names.map((n) => folderName(n)).join(',');

/**
 * Queues `inputs` (or what `load` returns: pass a loader when the list needs a request, so that the folder picker,
 * which needs the user's click, comes first). Resolves to the number of tasks queued.
 */
export async function queueDownloads(inputs: readonly TaskInput[] | (() => Promise<readonly TaskInput[]>)): Promise<number> {
  const userId = downloadUser() ?? (await fetchCurrentUser().catch(() => null))?.id ?? null;
  if (userId === null) {
    void message.error('请先登录', ERROR_TOAST_SECONDS);
    return 0;
  }
  const shell = pageShell(userId);
  if (!shell) {
    requestDrawer({ type: 'clientDialog' });
    return 0;
  }
  if (!(await shell.prepare())) {
    const { problem } = shell.status();
    if (shell.kind === 'desktop' && problem) void message.error(problem, ERROR_TOAST_SECONDS);
    return 0; // in the browser: the user closed the folder picker
  }
  const list = typeof inputs === 'function' ? await inputs() : inputs;
  if (!list.length) {
    void message.warning(HTTP_TEXT.emptyDownload, ERROR_TOAST_SECONDS);
    return 0;
  }
  const tasks: DownloadTask[] = [];
  const refused: string[] = [];
  for (const input of list) {
    try {
      tasks.push(createTask(input, { userId, root: shell.root() }));
    } catch (err) {
      if (!(err instanceof DownloadPathError)) throw err;
      refused.push(err.message);
    }
  }
  if (refused.length) void message.warning(`${refused.length}个文件无法下载：${refused[0]}`, ERROR_TOAST_SECONDS);
  if (!tasks.length) return 0;
  await dispatchDownloads({ type: 'add', tasks });
  pageManager(userId, shell);
  requestDrawer({ type: 'open' });
  void message.success(`已添加${tasks.length}个下载任务`);
  return tasks.length;
}
