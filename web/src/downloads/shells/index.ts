import { desktopBridgeConfig } from '../../common/desktopLaunch.ts';
import { isDesktopApp } from '../../common/storage.ts';
import { BrowserShell, hasFileSystemAccess } from './browserShell.ts';
import { DesktopShell } from './desktopShell.ts';
import type { DownloadShell } from './types.ts';

export type ShellKind = 'desktop' | 'browser' | 'none';

/**
 * Which shell does the downloading (issue 8): the desktop client in the desktop app (spec §2.1 `electron=app`), the
 * browser itself where it can write into a folder (File System Access), otherwise none: the page offers the client.
 */
export function detectShellKind(env = { desktop: isDesktopApp() || desktopBridgeConfig() !== null, fileSystemAccess: hasFileSystemAccess() }): ShellKind {
  if (env.desktop) return 'desktop';
  return env.fileSystemAccess ? 'browser' : 'none';
}

let current: { userId: number; shell: DownloadShell } | null = null;

/** The page's shell for the signed-in user, made on first use; null where there is none. */
export function pageShell(userId: number): DownloadShell | null {
  if (current?.userId === userId) return current.shell;
  const kind = detectShellKind();
  if (kind === 'none') return null;
  current?.shell.close();
  const shell = kind === 'desktop' ? new DesktopShell({ config: desktopBridgeConfig(), userId }) : new BrowserShell();
  current = { userId, shell };
  return shell;
}
