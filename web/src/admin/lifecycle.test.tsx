// @vitest-environment happy-dom
import { ACTION_CODES, ADMIN_MENU_CODES, type Dispute, type Page } from '@contest/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import GradePage from './pages/question/GradePage.tsx';

/** The API as a table of answers by address; every request is recorded. */
const api = useFakeApi();
const QUESTION = 11;
const SUMMARY = `/api/review/works/grade/summary/${QUESTION}`;
const DISPUTES = `/api/review/works/dispute/page/${QUESTION}`;
// Far in the future, so the still-open window stays open whatever day the test runs.
const OPEN = { kind: 'SUBMIT_WORKS', name: '提交作品', end: '2099-03-20T04:00:00.000Z' };
const page = <T,>(list: T[]): Page<T> => ({ list, total: list.length, page: 1, limit: 20 });
/** The writes made, as `METHOD /path`. */
const writes = () => api.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.url}`);

beforeEach(() => {
  api.answers = {
    '/api/team/userinfo/': { id: 1, username: 'org', userName: '组织者' },
    '/api/team/userinfo/permission': [ACTION_CODES.gradeEdit, ADMIN_MENU_CODES.question],
    [`/api/competition/question/check/${QUESTION}`]: { id: QUESTION, title: 'A题', competitionId: 7, competitionName: '泰迪杯' },
    [SUMMARY]: { gradeState: 0, calculatedAt: null, confirmedAt: null, unfinished: [], judging: 'both', submissionOpen: OPEN },
    [`GET /api/review/works/grade/${QUESTION}`]: page([]),
    [`GET ${DISPUTES}`]: page([]),
  };
});

/** Where the page is: its path and query. */
function Where() {
  const { pathname, search } = useLocation();
  return <span data-testid="where">{pathname + search}</span>;
}

function open(search = '') {
  renderPage(
    <Routes>
      <Route
        path="/question/grade/:questionId"
        element={
          <>
            <GradePage />
            <Where />
          </>
        }
      />
    </Routes>,
    `/question/grade/${QUESTION}${search}`,
  );
}

describe('early actions on the grade page', () => {
  it('asks before computing grades while submission is open, naming the deadline', async () => {
    open();
    fireEvent.click(await screen.findByRole('button', { name: /计算成绩/ }, { timeout: 10_000 }));
    expect((await screen.findByTestId('early-warning')).textContent).toBe('提交作品尚未截止（03-20 12:00），现在计算的成绩可能不是最终成绩，确定继续？');
    expect(writes()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(writes()).toEqual([`POST /api/review/works/calcFinalScore/${QUESTION}`]));
  });

  it("explains the grades with the question's own rule: its aggregation and its weights, nothing of another rule", async () => {
    api.answers[`/api/review/rules/${QUESTION}`] = {
      questionId: QUESTION,
      aggregation: 'mean',
      reviewWeight: 60,
      testWeight: 40,
      judgesPerWork: 2,
      blind: true,
      disputeDays: 0,
      criteria: [],
    };
    open();
    await waitFor(() => expect(screen.getByTestId('how-grades-add-up').textContent).toContain('最终成绩 = 评审成绩 × 60% + 测试得分 × 40%'), {
      timeout: 10_000,
    });
    const text = screen.getByTestId('how-grades-add-up').textContent!;
    expect(text).toContain('评审成绩 = 各评委总分 ÷ 满分 × 100 的平均');
    expect(text).not.toContain('去掉');
  });

  it('computes at once once submission has closed', async () => {
    api.answers[SUMMARY] = { gradeState: 0, calculatedAt: null, confirmedAt: null, unfinished: [], judging: 'both', submissionOpen: null };
    open();
    fireEvent.click(await screen.findByRole('button', { name: /计算成绩/ }, { timeout: 10_000 }));
    await waitFor(() => expect(writes()).toEqual([`POST /api/review/works/calcFinalScore/${QUESTION}`]));
    expect(screen.queryByTestId('early-warning')).toBeNull();
  });

  it('holds back 确认成绩 while submission is open, naming the deadline as the server does', async () => {
    api.answers[SUMMARY] = {
      gradeState: 1,
      calculatedAt: '2026-03-01T00:00:00.000Z',
      confirmedAt: null,
      unfinished: [],
      judging: 'both',
      submissionOpen: OPEN,
    };
    open();
    const button = (await screen.findByRole('button', { name: /确认成绩/ }, { timeout: 10_000 })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect((await screen.findByTestId('publish-refusal')).textContent).toContain('提交作品将于 2099-03-20 12:00 截止，截止前不能公布成绩');
    // The button's tooltip gives the same reason.
    fireEvent.pointerEnter(button);
    expect((await screen.findByRole('tooltip', {}, { timeout: 5_000 })).textContent).toBe('提交作品将于 2099-03-20 12:00 截止，截止前不能公布成绩');
    fireEvent.click(button);
    expect(writes()).toEqual([]);
    // Computing stays possible, after the early warning.
    fireEvent.click(screen.getByRole('button', { name: /重新计算/ }));
    expect((await screen.findByTestId('early-warning')).textContent).toBe('提交作品尚未截止（03-20 12:00），现在计算的成绩可能不是最终成绩，确定继续？');
  });

  it('confirms once submission has closed, asking only what confirming does', async () => {
    api.answers[SUMMARY] = {
      gradeState: 1,
      calculatedAt: '2026-03-01T00:00:00.000Z',
      confirmedAt: null,
      unfinished: [],
      judging: 'both',
      submissionOpen: null,
    };
    open();
    const button = (await screen.findByRole('button', { name: /确认成绩/ }, { timeout: 10_000 })) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(screen.queryByTestId('publish-refusal')).toBeNull();
    fireEvent.click(button);
    expect(await screen.findByText(/确认后成绩将被锁定/)).toBeTruthy();
    expect(screen.queryByTestId('early-warning')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(writes()).toEqual([`POST /api/review/works/confirmFinalScore/${QUESTION}`]));
  });

  it('lets a deadline that has passed on this clock through, though the summary was read before it', async () => {
    api.answers[SUMMARY] = {
      gradeState: 1,
      calculatedAt: '2026-03-01T00:00:00.000Z',
      confirmedAt: null,
      unfinished: [],
      judging: 'both',
      submissionOpen: { ...OPEN, end: '2000-01-01T00:00:00.000Z' },
    };
    open();
    const button = (await screen.findByRole('button', { name: /确认成绩/ }, { timeout: 10_000 })) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(screen.queryByTestId('publish-refusal')).toBeNull();
  });
});

describe('the disputes on the grade page', () => {
  const dispute = (id: number, over: Partial<Dispute> = {}): Dispute => ({
    id,
    questionId: QUESTION,
    teamId: id,
    teamNo: `T${id}`,
    teamName: `队伍${id}`,
    username: `user${id}`,
    reason: `申诉理由${id}`,
    status: 0,
    answer: null,
    rereview: false,
    createdAt: '2026-05-01T02:00:00.000Z',
    answeredAt: null,
    kind: 'dispute',
    attachment: null,
    objectorName: null,
    ...over,
  });
  const answered = dispute(2, { status: 1, answer: '维持原成绩', answeredAt: '2026-05-02T02:00:00.000Z' });

  it('opens on those waiting from the address, and lists them all once 全部 removes the filter', async () => {
    api.answers[`${DISPUTES}?page=1&limit=20&status=0`] = page([dispute(1)]);
    api.answers[`${DISPUTES}?page=1&limit=20`] = page([dispute(1), answered]);
    open('?dispute=0');
    expect(await screen.findByText('申诉理由1', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByText('申诉理由2')).toBeNull();
    expect(screen.getByTitle('待答复').closest('.ant-segmented-item')!.className).toContain('selected');
    fireEvent.click(screen.getByText('全部', { selector: '.ant-segmented-item-label' }));
    expect(await screen.findByText('申诉理由2')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe(`/question/grade/${QUESTION}`);
    // An answered dispute offers no answer.
    expect(within(screen.getByText('申诉理由2').closest('tr')!).queryByText('答复')).toBeNull();
  });

  it('says there is nothing waiting in the filter’s own words', async () => {
    open('?dispute=0');
    expect(await screen.findByText('没有待答复的申诉', {}, { timeout: 10_000 })).toBeTruthy();
    expect(api.requests.some((r) => r.url === `${DISPUTES}?page=1&limit=20&status=0`)).toBe(true);
  });

  it('answers a dispute and reloads the list', async () => {
    let done = false;
    api.answers[`GET ${DISPUTES}`] = () =>
      page([done ? dispute(1, { status: 1, answer: '经复核，维持原成绩', answeredAt: '2026-05-02T02:00:00.000Z' }) : dispute(1)]);
    api.answers[`PUT /api/review/works/dispute/1`] = () => {
      done = true;
      return null;
    };
    open();
    const row = (await screen.findByText('申诉理由1', {}, { timeout: 10_000 })).closest('tr')!;
    fireEvent.click(within(row).getByText('答复'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('答复内容'), { target: { value: '经复核，维持原成绩' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存|确\s*定/ }));
    expect(await screen.findByText('已答复')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'PUT')).toMatchObject({
      url: '/api/review/works/dispute/1',
      body: { answer: '经复核，维持原成绩', rereviewJudgeId: null },
    });
    // The answer shows in the reloaded list, and 答复 is no longer offered.
    expect(await screen.findByText('经复核，维持原成绩', { selector: 'td, td *' })).toBeTruthy();
    await waitFor(() => expect(within(screen.getByText('申诉理由1').closest('tr')!).queryByText('答复')).toBeNull());
  });
});
