import type { Page, TaskInput } from '@contest/shared';
import { CloudDownloadOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { http } from '../common/http.ts';
import { queueDownloads } from './queue.ts';

/** Every item of a paged list (the API's largest page is 100), for "download all". */
export async function loadAllPages<T>(url: string, query: Record<string, string | number | undefined> = {}): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page++) {
    const data = await http.get<Page<T>>(url, { ...query, page, limit: 100 });
    all.push(...data.list);
    if (data.list.length === 0 || all.length >= data.total) return all;
  }
}

/**
 * "下载全部" and "下载所选" (issue 8): one download task per file, in folders by question and team, through the
 * download manager. `all` is called after the click has prepared the shell (the folder picker needs the click).
 */
export function BulkDownloadButtons({ all, selected }: { all: () => Promise<TaskInput[]>; selected?: TaskInput[] }) {
  const [busy, setBusy] = useState<'all' | 'selected' | null>(null);
  const run = async (which: 'all' | 'selected') => {
    setBusy(which);
    try {
      await queueDownloads(which === 'all' ? all : (selected ?? []));
    } catch {
      // the http client has told the user why
    } finally {
      setBusy(null);
    }
  };
  return (
    <Space>
      <Button icon={<CloudDownloadOutlined />} loading={busy === 'all'} onClick={() => void run('all')}>
        下载全部
      </Button>
      {/* Without a selection to make (a list of cards on a phone) there is nothing to download "selected". */}
      {selected && (
        <Button icon={<CloudDownloadOutlined />} loading={busy === 'selected'} disabled={!selected.length} onClick={() => void run('selected')}>
          下载所选{selected.length ? `（${selected.length}）` : ''}
        </Button>
      )}
    </Space>
  );
}
