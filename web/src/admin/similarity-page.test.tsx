// @vitest-environment happy-dom
import type { SimilarityOverview, SimilarityPair, SimilarityWork } from '@contest/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import SimilarityPage from './pages/question/SimilarityPage.tsx';

const api = useFakeApi();

const work = (over: Partial<SimilarityWork>): SimilarityWork => ({
  workId: 1,
  teamId: 1,
  teamNo: 'T1',
  teamName: '队伍1',
  version: 1,
  fileName: 'a.docx',
  chars: 5000,
  files: [{ name: 'a.docx', chars: 5000, reason: null }],
  topShare: 0,
  codeShare: 0,
  level: 'none',
  matches: [],
  identity: [],
  held: false,
  decision: null,
  decisionNote: null,
  decidedAt: null,
  report: null,
  outdated: false,
  ...over,
});

const copied = work({
  workId: 2,
  teamId: 2,
  teamNo: 'T2',
  teamName: '借鉴队',
  topShare: 493,
  level: 'hold',
  held: true,
  matches: [{ pairId: 7, kind: 'text', language: null, share: 493, otherShare: 498, teamNo: 'T1', teamName: '原创队', earlier: null }],
});
const named = work({
  workId: 3,
  teamId: 3,
  teamNo: 'T3',
  teamName: '署名队',
  held: true,
  identity: [{ kind: '成员姓名', value: '张三', where: '正文', excerpt: '作者：张三，指导教师…' }],
});
const scanned = work({
  workId: 4,
  teamId: 4,
  teamNo: 'T4',
  teamName: '扫描队',
  chars: 0,
  files: [{ name: '扫描队.pdf', chars: 0, reason: '扫描件或图片（没有文字层），无法提取文字' }],
});

const overview = (works: SimilarityWork[]): SimilarityOverview => ({
  flagPercent: 20,
  holdPercent: 40,
  blind: true,
  run: {
    status: 'done',
    works: works.length,
    done: works.length,
    unreadable: 1,
    pairs: 1,
    error: null,
    startedAt: '2026-05-01T02:00:00.000Z',
    finishedAt: '2026-05-01T02:01:00.000Z',
  },
  exclusions: [],
  earlierEditions: [],
  works,
});

function open(works: SimilarityWork[]) {
  api.answers = {
    '/api/team/userinfo/': { id: 2, username: 'org', userName: '李老师', faceImg: null },
    '/api/team/userinfo/permission': ['competition:competition:menu', 'review:assign:edit', 'review:assign:menu'],
    '/api/competition/question/check/5': { id: 5, title: '论文题', competitionId: 3, competitionName: '泰迪杯', judging: 'review' },
    'GET /api/review/similarity/5': overview(works),
  };
  renderPage(
    <Routes>
      <Route path="/question/similarity/:questionId" element={<SimilarityPage />} />
    </Routes>,
    '/question/similarity/5',
  );
}

describe('查重 of a question', () => {
  it('lists the works by share with what holds them, and filters those waiting for a decision', async () => {
    open([copied, named, scanned]);
    expect(await screen.findByText('2 份待处理')).toBeTruthy();
    expect(within(screen.getByText('借鉴队').closest('tr')!).getByText('49.3%')).toBeTruthy();
    expect(within(screen.getByText('借鉴队').closest('tr')!).getByText('待处理')).toBeTruthy();
    expect(within(screen.getByText('署名队').closest('tr')!).getByText('1 处')).toBeTruthy();
    expect(screen.getByText('扫描队.pdf：扫描件或图片（没有文字层），无法提取文字')).toBeTruthy();
    fireEvent.click(screen.getByText('待处理', { selector: '.ant-segmented-item-label' }));
    await waitFor(() => expect(screen.queryByText('扫描队')).toBeNull());
    expect(screen.getByText('借鉴队')).toBeTruthy();
  });

  it('shows a pair side by side with each side’s shared passages marked', async () => {
    const text = '共同的开头。这一段是抄来的内容。各自的结尾。';
    const start = text.indexOf('这一段');
    const pair: SimilarityPair = {
      id: 7,
      kind: 'text',
      language: null,
      a: { teamNo: 'T2', teamName: '借鉴队', label: '第1版', text, passages: [[start, start + 9]], share: 493 },
      b: { teamNo: 'T1', teamName: '原创队', label: '第1版', text: `前言。${text}`, passages: [[start + 3, start + 12]], share: 498 },
    };
    open([copied]);
    api.answers['GET /api/review/similarity/pair/7'] = pair;
    fireEvent.click(await screen.findByRole('button', { name: '对比' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog.querySelectorAll('mark')).toHaveLength(2));
    expect([...dialog.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['这一段是抄来的内容', '这一段是抄来的内容']);
    expect(within(dialog).getByText(/相同部分占 49.3%/)).toBeTruthy();
  });

  it('asks what the team must change before asking it for a new version, and sends the decision', async () => {
    open([named]);
    api.answers['PUT /api/review/similarity/decision/5'] = overview([{ ...named, decision: 'resubmit', decisionNote: '删去姓名' }]);
    fireEvent.click(await screen.findByRole('button', { name: '处理' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByLabelText('要求重新提交'));
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('请说明需要队伍修改的内容')).toBeTruthy();
    expect(api.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('说明'), { target: { value: '删去姓名' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.requests.filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(api.requests.find((r) => r.method === 'PUT')!.body).toEqual({ teamId: 3, decision: 'resubmit', note: '删去姓名' });
    expect(await screen.findByText('已要求重新提交')).toBeTruthy();
  });
});
