// @vitest-environment happy-dom
import { createTask, type ReviewWork, type WorkVersion } from '@contest/shared';
import { describe, expect, it } from 'vitest';
import { workTask } from '../admin/pages/question/WorksPage.tsx';
import { reviewWorkTask } from '../review/pages/QuestionWorksPage.tsx';
import { onDrawerRequest, setDownloadUser, type DrawerRequest } from './bus.ts';
import { dirOf, folderName, queueDownloads } from './queue.ts';

const version = (over: Partial<WorkVersion> = {}): WorkVersion => ({
  id: 1,
  competitionId: 1,
  questionId: 11,
  teamId: 3,
  teamNo: '001',
  teamName: '数据先锋队',
  version: 2,
  fileUri: 'works/2024/a b.zip',
  fileName: '作品.zip',
  size: 10,
  sha256: '',
  username: 'zs',
  completedAt: '',
  counts: true,
  ...over,
});

describe('bulk download tasks', () => {
  it('makes safe folder names: no separators, no commas, no trailing dots', () => {
    expect(folderName('A题: 客户/流失, 预测...')).toBe('A题_ 客户_流失_ 预测');
    expect(folderName('..')).toBe('未命名');
    expect(dirOf('A题', '001-队伍,一')).toBe('A题,001-队伍_一');
  });

  it("files a team's counted work under <question>/<teamNo>-<teamName>, an older version with its number", () => {
    const counted = workTask('A题 客户流失预测', version());
    expect(counted).toEqual({
      dir: 'A题 客户流失预测,001-数据先锋队',
      downloadPath: '/api/file/common/download?fileUri=works%2F2024%2Fa%20b.zip',
      fileName: '作品.zip',
    });
    expect(createTask(counted, { userId: 1, root: '' }).savePath).toBe('A题 客户流失预测/001-数据先锋队/作品.zip');
    expect(workTask('A题', version({ counts: false, version: 1 })).fileName).toBe('作品(V1).zip');
  });

  it("names a judge's works by code, so same-named files of two teams do not collide", () => {
    const work = { id: 5, code: 'W0005', fileName: 'report.pdf' } as ReviewWork & { fileName: string };
    expect(reviewWorkTask('A题', work)).toEqual({ dir: 'A题', downloadPath: '/api/review/center/works/5/download', fileName: 'W0005-report.pdf' });
    expect(reviewWorkTask('A题', { ...work, fileName: '作品-W0005.pdf' }).fileName).toBe('作品-W0005.pdf');
  });

  it('shows the download client dialog where the browser cannot write files and there is no desktop client', async () => {
    const requests: DrawerRequest[] = [];
    const off = onDrawerRequest((r) => requests.push(r));
    setDownloadUser(7);
    expect(await queueDownloads([workTask('A题', version())])).toBe(0);
    expect(requests).toEqual([{ type: 'clientDialog' }]);
    off();
  });
});
