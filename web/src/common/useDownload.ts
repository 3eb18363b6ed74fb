import { useSyncExternalStore } from 'react';
import { downloadFile } from './download.ts';

export interface DownloadState {
  received: number;
  total: number | null;
  /** 0..100, or null while the size is unknown. */
  percent: number | null;
}

/**
 * Downloads under way in this page, by key. They live outside any component, so a download goes on while the user
 * moves between the pages of an entry and its progress is there again on return.
 */
let downloads: Record<string, DownloadState> = {};
const controllers = new Map<string, AbortController>();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

function update(key: string, state: DownloadState | null) {
  const { [key]: _, ...rest } = downloads;
  downloads = state ? { ...rest, [key]: state } : rest;
  emit();
}

/** Starts downloading `url` under `key` (nothing happens if it is already under way); resolves when it ends. */
export async function startDownload(key: string, url: string): Promise<boolean> {
  if (controllers.has(key)) return false;
  const controller = new AbortController();
  controllers.set(key, controller);
  update(key, { received: 0, total: null, percent: 0 });
  let lastEmit = 0;
  try {
    return await downloadFile(url, {
      signal: controller.signal,
      onProgress: (received, total) => {
        const percent = total ? Math.floor((received / total) * 100) : null;
        const now = Date.now();
        // Enough for a progress bar: when the percentage moves, or a few times a second while the size is unknown.
        if (percent === downloads[key]?.percent && (percent !== null || now - lastEmit < 250)) return;
        lastEmit = now;
        update(key, { received, total, percent });
      },
    });
  } catch {
    return false; // already told (or cancelled)
  } finally {
    controllers.delete(key);
    update(key, null);
  }
}

export function cancelDownload(key: string): void {
  controllers.get(key)?.abort();
}

/** The state of the download under `key`, or undefined when there is none. */
export function useDownload(key: string): DownloadState | undefined {
  return useSyncExternalStore(subscribe, () => downloads[key]);
}
