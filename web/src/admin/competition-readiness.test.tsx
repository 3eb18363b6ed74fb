// @vitest-environment happy-dom
import {
  ACTION_CODES,
  CSRF_COOKIE,
  MENU_CODES,
  MENU_NAMES,
  REG_FIELDS,
  competitionReadiness,
  type ManagedQuestion,
  type ReadinessFacts,
} from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import CompetitionEditPage from './pages/competition/CompetitionEditPage.tsx';
import CompetitionViewPage from './pages/competition/CompetitionViewPage.tsx';

// wangEditor does not run in happy-dom: a text area stands in for it.
vi.mock('./components/RichTextEditor.tsx', () => ({
  default: ({ value, onChange }: { value?: string | null; onChange?: (html: string) => void }) => (
    <textarea value={value ?? ''} onChange={(e) => onChange?.(e.target.value)} />
  ),
}));

/**
 * The API as a table of answers keyed by address (GET) or `METHOD address`; an answer `{ refuse: [status, message,
 * fields] }` is a refusal. Writes are recorded.
 */
let answers: Record<string, unknown> = {};
let writes: string[] = [];
const SLOW = 10_000;
const ID = 7;

beforeEach(() => {
  writes = [];
  document.cookie = `${CSRF_COOKIE}=csrf-token`;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const { pathname } = new URL(url, location.href);
      const method = init.method ?? 'GET';
      if (method !== 'GET') writes.push(`${method} ${pathname}`);
      const answer = answers[method === 'GET' ? pathname : `${method} ${pathname}`];
      const refuse = (answer as { refuse?: [number, string, Record<string, string>?] } | undefined)?.refuse;
      if (refuse) {
        const [status, message, fields] = refuse;
        return new Response(JSON.stringify({ status, message, data: fields ? { fields } : null }), { status, headers: { 'content-type': 'application/json' } });
      }
      return new Response(JSON.stringify({ status: 200, message: '操作成功', data: answer ?? null }), { headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const competition = {
  id: ID,
  name: '准备检查竞赛',
  auditStatus: 0,
  auditReply: null,
  brandId: 1,
  brandShortName: '准备',
  orgId: 1,
  orgName: '甲大学',
  stages: [],
  activeStageId: 0,
  regStartTime: '2026-03-09T16:00:00.000Z',
  regEndTime: '2026-04-09T16:00:00.000Z',
  endTime: '2026-06-29T16:00:00.000Z',
  fee: 0,
  invoiceEnable: true,
  allowIndividual: true,
  eligibility: { sameSchool: false, schoolAudit: false, maxTeamsPerSchool: null, maxTeamsPerTeacher: null, groupMode: 'none' as const, groupList: [] },
  minMembers: 1,
  maxMembers: 3,
  maxTeachers: 1,
  worksMaxMb: 100,
  worksTypes: 'zip',
  introduce: '<p>欢迎</p>',
  information: null,
  guide: null,
  trainingUrl: null,
  createdAt: '2026-02-01T00:00:00.000Z',
  updatedAt: '2026-02-01T00:00:00.000Z',
};
const presets = (regOn = true): ReadinessFacts['presets'] =>
  MENU_CODES.map((menuCode, i) => ({
    id: 100 + i,
    competitionId: ID,
    menuCode,
    name: MENU_NAMES[menuCode],
    enable: menuCode === 'REG_SET' ? regOn : ['QUES_AND_DATA', 'COMP_INFO'].includes(menuCode),
    enableStartTime: null,
    deadlineStageId: null,
    enableEndTime: null,
    fieldList: menuCode === 'REG_SET' ? REG_FIELDS.slice(0, 3).map((f) => ({ ...f, description: null, otherParams: { required: true } })) : [],
  }));
const question = (over: Partial<ManagedQuestion>): ManagedQuestion => ({
  id: 1,
  competitionId: ID,
  competitionName: competition.name,
  title: '客户流失预测',
  content: null,
  sort: 0,
  reviewed: false,
  creatorId: 2,
  creatorName: 'org',
  judging: 'both',
  evaluation: { metric: 'auc', idColumn: 'id', targetColumn: 'label', publicPercent: 30, dailyLimit: 5 },
  scorer: null,
  answerRows: 100,
  files: [],
  createdAt: '2026-02-01T00:00:00.000Z',
  updatedAt: '2026-02-01T00:00:00.000Z',
  ...over,
});
/** The checklist as the server computes it, by the same shared function. */
const readiness = (over: Partial<ReadinessFacts> = {}) =>
  competitionReadiness(
    { competition, stages: [], presets: presets(), questions: [], paymentMethods: [], platformInvoices: true, ...over },
    new Date('2026-03-01T00:00:00Z'),
  );

function open(path: string, permissions: string[]) {
  answers['/api/team/userinfo/'] = { id: 2, username: 'org', userName: '李老师', faceImg: null };
  answers['/api/team/userinfo/permission'] = permissions;
  render(
    <AntApp>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        {/* A data router, as the back office's: the editor's unsaved-changes guard holds back its navigations. */}
        <RouterProvider
          router={createMemoryRouter(
            [
              { path: '/competition/edit/:competitionId', element: <CompetitionEditPage /> },
              { path: '/competition/view/:competitionId', element: <CompetitionViewPage /> },
            ],
            { initialEntries: [path] },
          )}
        />
      </QueryClientProvider>
    </AntApp>,
  );
}

const ORGANISER = ['competition:competition:menu', ACTION_CODES.competitionEdit];
const item = async (key: string) => (await screen.findAllByTestId('readiness-item', {}, { timeout: SLOW })).find((el) => el.dataset.key === key)!;

describe('the readiness checklist in the competition editor', () => {
  it('shows each gap with its fix, keeps 提交审核 waiting for them, and a fix link opens the tab that fixes it', async () => {
    const gapQuestion = { id: 5, title: '没有答案的题', judging: 'both' as const, evaluation: { metric: 'auc' as const }, answerRows: null, reviewed: false };
    answers = {
      [`/api/competition/public/${ID}`]: competition,
      [`/api/competition/preset/public/list/${ID}`]: presets(false),
      [`/api/competition/readiness/${ID}`]: readiness({ presets: presets(false), questions: [gapQuestion] }),
    };
    open(`/competition/edit/${ID}`, ORGANISER);
    const card = await screen.findByTestId('readiness', {}, { timeout: SLOW });
    expect(within(card).getByText('还有 2 项必须补齐')).toBeTruthy();
    // The basic tab holds the competition's invoice switch, as saved.
    expect(((await screen.findByText('开放发票申请', {}, { timeout: SLOW })).closest('label')!.querySelector('input') as HTMLInputElement).checked).toBe(true);
    const reg = await item('regForm');
    expect(within(reg).getByText('「报名设置」未启用，参赛者无法报名')).toBeTruthy();
    expect(within(reg).getByText('必须补齐')).toBeTruthy();
    const q = await item('question:5');
    expect(within(q).getByText('赛题「没有答案的题」')).toBeTruthy();
    // Advice is shown apart from what blocks, and what is done is folded away.
    expect(within(await item('stages')).getByText('建议')).toBeTruthy();
    expect(within(card).getByText(/^已完成的检查（\d+）$/)).toBeTruthy();

    const submit = await screen.findByRole('button', { name: '提交审核' }, { timeout: SLOW });
    expect(submit).toHaveProperty('disabled', true);

    fireEvent.click(within(q).getByRole('button', { name: '去「赛题」修改' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: '赛题' }).getAttribute('aria-selected')).toBe('true'));
    fireEvent.click(within(reg).getByRole('button', { name: '去「菜单设置」修改' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: '菜单设置' }).getAttribute('aria-selected')).toBe('true'));
    expect(writes).toEqual([]);
  });

  it('submits a ready competition, and shows the server’s refusal with its list on the checklist', async () => {
    answers = {
      [`/api/competition/public/${ID}`]: competition,
      [`/api/competition/preset/public/list/${ID}`]: presets(),
      [`/api/competition/readiness/${ID}`]: readiness(),
      [`PUT /api/competition/publish/${ID}`]: {
        refuse: [
          409,
          '还有 1 项必须补齐才能提交审核：1. 报名表：「报名设置」未启用，参赛者无法报名',
          { regForm: '报名表：「报名设置」未启用，参赛者无法报名' },
        ],
      },
    };
    open(`/competition/edit/${ID}`, ORGANISER);
    const card = await screen.findByTestId('readiness', {}, { timeout: SLOW });
    expect(within(card).getByText('必需项已齐全')).toBeTruthy();
    const submit = await screen.findByRole('button', { name: '提交审核' }, { timeout: SLOW });
    expect(submit).toHaveProperty('disabled', false);
    fireEvent.click(submit);
    const dialog = await screen.findByRole('dialog', {}, { timeout: SLOW });
    expect(within(dialog).getByText(/审核期间不能修改竞赛信息、阶段和菜单设置/)).toBeTruthy();
    // Meanwhile another tab turned registration off: the server refuses, and the checklist says why.
    answers[`/api/competition/readiness/${ID}`] = readiness({ presets: presets(false) });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(card).findByText('未能提交审核', {}, { timeout: SLOW })).toBeTruthy();
    expect(within(card).getByText(/还有 1 项必须补齐才能提交审核：1\. 报名表/)).toBeTruthy();
    await waitFor(() => expect(within(card).getByText('还有 1 项必须补齐')).toBeTruthy());
    expect(writes).toEqual([`PUT /api/competition/publish/${ID}`]);
  });

  it('says the menus wait for the audit instead of offering a save', async () => {
    answers = {
      [`/api/competition/public/${ID}`]: { ...competition, auditStatus: 1 },
      [`/api/competition/preset/public/list/${ID}`]: presets(),
      [`/api/competition/readiness/${ID}`]: readiness(),
    };
    open(`/competition/edit/${ID}?tab=presets`, ORGANISER);
    expect(await screen.findByText('竞赛正在审核中，菜单设置暂不能修改；审核结果出来后（通过或驳回）即可再修改。', {}, { timeout: SLOW })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '保存菜单设置' })).toBeNull();
    expect(screen.queryByRole('button', { name: '提交审核' })).toBeNull();
  });
});

describe('the audit page of a competition', () => {
  const AUDITOR = ['competition:competition:menu', 'competition:competitionAudit:menu', ACTION_CODES.competitionAudit, ACTION_CODES.questionReview];

  it('shows the questions and the checklist, and says in the confirmation that approving approves the scorable questions', async () => {
    const questions = [question({ id: 1, title: '客户流失预测' }), question({ id: 2, title: '销量预测', answerRows: null })];
    answers = {
      [`/api/competition/public/${ID}`]: { ...competition, auditStatus: 1 },
      [`/api/competition/readiness/${ID}`]: readiness({ questions }),
      [`/api/competition/question/list/${ID}`]: questions,
      [`PUT /api/competition/audit/${ID}`]: { questionsApproved: [1], questionsWaiting: [2] },
    };
    open(`/competition/view/${ID}`, AUDITOR);
    const table = await screen.findByTestId('audit-questions', {}, { timeout: SLOW });
    expect(await within(table).findByText('客户流失预测', {}, { timeout: SLOW })).toBeTruthy();
    expect(within(table).getByText('审核通过竞赛时一并通过')).toBeTruthy();
    expect(within(table).getByText(/未上传答案文件.*待组织方补齐后审核/)).toBeTruthy();
    expect(within(await screen.findByTestId('readiness')).getByText('还有 1 项必须补齐')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '审核通过' }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: SLOW });
    expect(within(dialog).getByText(/1 道可评分的赛题一并审核通过、对参赛者可见；1 道赛题缺少评分设置或答案文件，暂不公开/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(writes).toEqual([`PUT /api/competition/audit/${ID}`]));
  });

  it('lets the platform approve a question added after the competition went online, on the same page', async () => {
    const questions = [question({ id: 1, title: '初赛题', reviewed: true }), question({ id: 3, title: '决赛题' })];
    answers = {
      [`/api/competition/public/${ID}`]: { ...competition, auditStatus: 3 },
      [`/api/competition/readiness/${ID}`]: readiness({ questions }),
      [`/api/competition/question/list/${ID}`]: questions,
      'PUT /api/competition/question/review/3': null,
    };
    open(`/competition/view/${ID}`, AUDITOR);
    const table = await screen.findByTestId('audit-questions', {}, { timeout: SLOW });
    const row = (await within(table).findByText('决赛题', {}, { timeout: SLOW })).closest('tr')!;
    expect(within(table).getByText('参赛者可见')).toBeTruthy();
    fireEvent.click(within(row as HTMLElement).getByRole('button', { name: '审核通过' }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: SLOW });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(writes).toEqual(['PUT /api/competition/question/review/3']));
  });
});
