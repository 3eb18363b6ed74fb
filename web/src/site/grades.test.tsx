// @vitest-environment happy-dom
import type { Certificate, CertificateCheck, MyGrade, TeamAward } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import CertificateTab from './pages/certificate/CertificateTab.tsx';
import MyCertificatePage from './pages/certificate/MyCertificatePage.tsx';
import VerifyPage from './pages/certificate/VerifyPage.tsx';
import GradeTab from './pages/grade/GradeTab.tsx';

/** The API as a table of answers (a status other than 200 is an error reply); writes are recorded. */
let answers: Record<string, unknown> = {};
let requests: { method: string; url: string; headers: Record<string, string>; body?: unknown }[] = [];
const PDF = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');

beforeEach(() => {
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const { pathname, search } = new URL(url, location.href);
      const method = init.method ?? 'GET';
      requests.push({
        method,
        url: pathname + search,
        headers: init.headers as Record<string, string>,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      });
      if (pathname.startsWith('/api/review/certificate/cert/certificate/download/')) {
        return new Response(PDF, {
          headers: {
            'content-type': 'application/pdf',
            'content-length': String(PDF.length),
            'content-disposition': `attachment; filename="cert.pdf"; filename*=UTF-8''${encodeURIComponent('证书-张三.pdf')}`,
          },
        });
      }
      if (method !== 'GET') return envelope(null);
      const answer = answers[pathname + search];
      if (answer instanceof Error)
        return new Response(JSON.stringify({ status: 404, message: answer.message, data: null }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        });
      return envelope(answer ?? null);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const envelope = (data: unknown) =>
  new Response(JSON.stringify({ status: 200, message: '操作成功', data }), { headers: { 'content-type': 'application/json' } });
const user = { id: 5, username: 'zhangsan', userName: '张三', faceImg: null };
const team = { id: 9, name: '数据先锋队', choiceQuestionList: [{ questionId: 11, title: 'A题' }], memberList: [], teacherList: [] };

function open(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/competition/:competitionId',
        element: <Outlet context={{ competition: { id: 3, name: '泰迪杯' }, presets: [] }} />,
        children: [
          { path: 'grade', element: <GradeTab /> },
          { path: 'certificate', element: <CertificateTab /> },
        ],
      },
      { path: '/userCenter/myCertificate', element: <MyCertificatePage /> },
      { path: '/certificate/verify/:certNo', element: <VerifyPage /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <AntApp>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
}

const later = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const grade = (over: Partial<MyGrade>): MyGrade => ({
  questionId: 11,
  questionTitle: 'A题 客户流失预测',
  judging: 'both',
  formula:
    '最终成绩 = 评审成绩 × 70% + 测试得分 × 30%；评审成绩 = 各评委总分 ÷ 满分 × 100 的平均；测试得分 = 私榜得分相对私榜第一名折算的百分制（第一名为100）',
  rechecking: false,
  reviewScore: 85.5,
  testScore: 0.912345678,
  testPoints: 95.5,
  finalScore: 88.25,
  rank: 2,
  teams: 40,
  awardName: '一等奖',
  confirmedAt: '2026-05-01T02:00:00.000Z',
  disputeUntil: later(3),
  dispute: null,
  ...over,
});
const certificate = (over: Partial<Certificate>): Certificate => ({
  id: 70,
  certNo: '2026000100001',
  competitionId: 3,
  competitionName: '泰迪杯',
  questionId: 11,
  questionTitle: 'A题 客户流失预测',
  teamId: 9,
  teamName: '数据先锋队',
  holderKind: 'member',
  holderName: '张三',
  school: '华南师范大学',
  awardName: '一等奖',
  createdAt: '2026-05-10T02:00:00.000Z',
  ...over,
});

describe('the grade tab', () => {
  beforeEach(() => {
    answers = { '/api/team/userinfo/': user, '/api/team/competition/3/detail': { team, invitations: [] } };
  });

  it('says 成绩尚未公布 until grades are confirmed', async () => {
    answers['/api/review/works/myGrade/3'] = [];
    open('/competition/3/grade');
    expect(await screen.findByText('成绩尚未公布')).toBeTruthy();
  });

  it('shows the grade and files a dispute inside the window', async () => {
    answers['/api/review/works/myGrade/3'] = [grade({})];
    open('/competition/3/grade');
    expect(await screen.findByText('A题 客户流失预测')).toBeTruthy();
    expect(screen.getByText('85.5')).toBeTruthy();
    expect(screen.getByText('0.912346')).toBeTruthy();
    expect(screen.getByText('88.25')).toBeTruthy();
    expect(screen.getByText('第 2 名（共 40 支队伍）')).toBeTruthy();
    expect(screen.getByText('一等奖')).toBeTruthy();
    // Its parts and how they make the final score, in words.
    expect(screen.getByText('95.5')).toBeTruthy();
    expect(screen.getByTestId('grade-formula').textContent).toContain('最终成绩 = 评审成绩 × 70% + 测试得分 × 30%');

    fireEvent.click(screen.getByRole('button', { name: /申\s*诉/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('申诉理由'), { target: { value: '测试成绩与私榜不一致' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '提交申诉' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    expect(requests.find((r) => r.method === 'POST')).toMatchObject({ url: '/api/review/works/disputeScore/11', body: { reason: '测试成绩与私榜不一致' } });
  });

  it('offers no dispute after the window, and shows an existing one with its answer', async () => {
    answers['/api/review/works/myGrade/3'] = [
      grade({ disputeUntil: later(-1), awardName: null }),
      grade({
        questionId: 12,
        questionTitle: 'B题',
        dispute: {
          id: 1,
          questionId: 12,
          teamId: 9,
          teamNo: 'T1',
          teamName: '数据先锋队',
          username: 'zhangsan',
          reason: '评分偏低',
          status: 1,
          answer: '已复核，维持原成绩',
          rereview: false,
          createdAt: later(-2),
          answeredAt: later(-1),
          kind: 'dispute',
          attachment: null,
          objectorName: null,
        },
      }),
      grade({
        questionId: 13,
        questionTitle: 'C题',
        rechecking: true,
        reviewScore: null,
        finalScore: null,
        rank: null,
        dispute: {
          id: 2,
          questionId: 13,
          teamId: 9,
          teamNo: 'T1',
          teamName: '数据先锋队',
          username: 'zhangsan',
          reason: '漏评一项',
          status: 1,
          answer: '已安排复评',
          rereview: true,
          createdAt: later(-2),
          answeredAt: later(-1),
          kind: 'dispute',
          attachment: null,
          objectorName: null,
        },
      }),
    ];
    open('/competition/3/grade');
    expect(await screen.findByText('B题')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /申\s*诉/ })).toBeNull();
    expect(screen.getByText('未获奖')).toBeTruthy();
    expect(screen.getByText(/申诉期已于/)).toBeTruthy();
    expect(screen.getByText('评分偏低')).toBeTruthy();
    expect(screen.getAllByText('已答复')).toHaveLength(2);
    expect(screen.getByText('已复核，维持原成绩')).toBeTruthy();
    expect(screen.getByText('该赛题的成绩正在复评')).toBeTruthy();
    expect(screen.getByText('已安排复评', { selector: '.ant-tag' })).toBeTruthy();
  });
});

describe('the parts of a grade follow its question’s judging', () => {
  beforeEach(() => {
    answers = { '/api/team/userinfo/': user, '/api/team/competition/3/detail': { team, invitations: [] } };
  });

  it('shows a paper question’s review score alone, and a prediction question’s private score alone', async () => {
    answers['/api/review/works/myGrade/3'] = [
      grade({
        judging: 'review',
        formula: '最终成绩 = 评审成绩；评审成绩 = 各评委总分 ÷ 满分 × 100 的平均',
        testScore: null,
        testPoints: null,
        finalScore: 85.5,
      }),
      grade({
        questionId: 12,
        questionTitle: 'B题 销量预测',
        judging: 'auto',
        formula: '最终成绩 = 私榜得分：队伍选定的提交中私榜得分最好的一次',
        reviewScore: null,
        testScore: 0.812,
        testPoints: null,
        finalScore: 0.812,
      }),
    ];
    open('/competition/3/grade');
    const [paper, prediction] = await screen.findAllByTestId('my-grade');
    expect(paper!.textContent).toContain('专家评审（提交作品）');
    expect(paper!.textContent).toContain('评审成绩');
    expect(paper!.textContent).not.toContain('私榜得分');
    expect(prediction!.textContent).toContain('自动评分（提交测试）');
    expect(prediction!.textContent).toContain('私榜得分');
    expect(prediction!.textContent).not.toContain('评审成绩');
    expect(within(prediction!).getByTestId('grade-formula').textContent).toContain('最终成绩 = 私榜得分');
  });
});

describe('certificates', () => {
  it('lists the team’s awards and certificates, and downloads one with its name', async () => {
    const awards: TeamAward[] = [
      { questionId: 11, questionTitle: 'A题 客户流失预测', competitionId: 3, competitionName: '泰迪杯', awardName: '一等奖', finalScore: 88.25, rank: 2 },
    ];
    answers = {
      '/api/team/userinfo/': user,
      '/api/team/competition/3/detail': { team, invitations: [] },
      '/api/review/works/list/awards/9': awards,
      '/api/review/certificate/person/9': [
        certificate({}),
        certificate({ id: 71, certNo: '2026000100002', holderKind: 'teacher', holderName: '王老师', school: null }),
      ],
    };
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    open('/competition/3/certificate');
    expect(await screen.findByText('王老师')).toBeTruthy();
    expect(screen.getByText('指导教师')).toBeTruthy();
    expect(screen.getByText('队员')).toBeTruthy();
    expect(screen.getByTestId('team-award').textContent).toContain('最终成绩 88.25');
    // 查看 opens a tab at once and shows the PDF there when it has arrived.
    const tab = { document: { title: '', body: { textContent: '' } }, location: { href: '' }, close: vi.fn() };
    const openTab = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const objectUrl = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:certificate');
    fireEvent.click(screen.getAllByRole('button', { name: /查看/ })[0]!);
    expect(openTab).toHaveBeenCalledWith('', '_blank');
    await waitFor(() => expect(tab.location.href).toBe('blob:certificate'));
    expect((objectUrl.mock.calls[0]![0] as Blob).type).toBe('application/pdf');

    fireEvent.click(screen.getAllByRole('button', { name: /下载/ })[0]!);
    await waitFor(() => expect(saved).toEqual(['证书-张三.pdf']));
    const downloads = requests.filter((r) => r.url === '/api/review/certificate/cert/certificate/download/70');
    expect(downloads).toHaveLength(2);
    expect(downloads.every((r) => r.headers['X-Requested-With'] === 'XMLHttpRequest')).toBe(true);
  });

  it('lists the caller’s certificates in the user centre', async () => {
    answers = { '/api/review/certificate/cert/list': [certificate({}), certificate({ id: 72, competitionName: '数学建模' })] };
    open('/userCenter/myCertificate');
    expect(await screen.findByText('数学建模')).toBeTruthy();
    expect(screen.getAllByText('2026000100001').length).toBeGreaterThan(0);
  });

  it('verifies a certificate for anyone, with the code from the address', async () => {
    const check: CertificateCheck = {
      certNo: '2026000100001',
      holderName: '张*',
      competitionName: '泰迪杯',
      questionTitle: 'A题',
      awardName: '一等奖',
      createdAt: '2026-05-10T02:00:00.000Z',
    };
    answers = { '/api/review/certificate/public/verify/2026000100001?code=abc123': check };
    open('/certificate/verify/2026000100001?code=abc123');
    expect(await screen.findByText('证书验证')).toBeTruthy();
    expect(screen.getByText('张*')).toBeTruthy();
    expect(screen.getByText('2026/05/10')).toBeTruthy();
  });

  it('says when a certificate is not found', async () => {
    answers = { '/api/review/certificate/public/verify/2026000100001?code=bad': new Error('证书不存在') };
    open('/certificate/verify/2026000100001?code=bad');
    expect(await screen.findByText('未找到该证书，或验证码不正确')).toBeTruthy();
  });
});
