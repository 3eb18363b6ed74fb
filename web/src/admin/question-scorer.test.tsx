// @vitest-environment happy-dom
import { ACTION_CODES, EXAMPLE_SCORER, type EvaluationBody, type ManagedQuestion, type Scorer, type ScorerTry } from '@contest/shared';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import { QuestionsPanel } from './pages/competition/parts/QuestionsPanel.tsx';

/** Issue 23, item 1: the organiser uploads and tries the question's own scoring program from the back office. */

vi.mock('./components/RichTextEditor.tsx', () => ({
  default: ({ value, onChange }: { value?: string | null; onChange?: (html: string) => void }) => (
    <textarea value={value ?? ''} onChange={(e) => onChange?.(e.target.value)} />
  ),
}));

const CUSTOM: EvaluationBody = { metric: 'custom', idColumn: 'id', publicPercent: 30, dailyLimit: 5, higherIsBetter: false, timeLimitSec: 120 };
const UPLOADED: Scorer = { name: 'score.py', size: 2048, sha256: 'ab'.repeat(32), uploadedAt: '2026-03-01T08:30:00.000Z', uploaderName: 'org' };

let questions: ManagedQuestion[] = [];
const api = useFakeApi();
/** The writes the page sent, in order: a multipart upload by its file's name. */
const writes = () =>
  api.requests
    .filter((r) => r.method !== 'GET')
    .map((r) => ({ at: `${r.method} ${r.url}`, body: r.body instanceof FormData ? (r.body.get('file') as File).name : r.body }));

const question = (over: Partial<ManagedQuestion>): ManagedQuestion => ({
  id: 11,
  competitionId: 7,
  competitionName: '泰迪杯',
  title: 'A题 目标检测',
  content: null,
  sort: 0,
  reviewed: false,
  creatorId: null,
  creatorName: null,
  judging: 'both',
  evaluation: CUSTOM,
  scorer: null,
  answerRows: 200,
  files: [],
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
  ...over,
});

beforeEach(() => {
  Object.assign(api.answers, {
    '/api/team/userinfo/': { id: 2, username: 'org', userName: '组织者', faceImg: null },
    '/api/team/userinfo/permission': [ACTION_CODES.competitionEdit],
    // Read live: an upload changes what the list describes.
    'GET /api/competition/question/list/7': () => questions,
    '/api/review/test/queue/7': { waiting: 0, running: 0, failedLastHour: 1 },
    '/api/review/test/failures/7': [
      {
        id: 91,
        questionTitle: 'A题 目标检测',
        teamName: '视觉先锋',
        fileName: 'boxes.csv',
        reason: '评分失败：评分程序异常退出（退出码1），本次提交不计入次数；请检查文件是否符合赛题说明，或联系主办方',
        scorerLog: 'Traceback (most recent call last):\nZeroDivisionError: division by zero',
        scoredAt: '2026-03-01T08:40:00.000Z',
      },
      {
        id: 92,
        questionTitle: 'A题 目标检测',
        teamName: '数据猎人',
        fileName: 'short.csv',
        reason: '缺少50个测试集编号的预测',
        scorerLog: null,
        scoredAt: '2026-03-01T08:41:00.000Z',
      },
    ],
  });
});
configure({ asyncUtilTimeout: 15_000 });

const show = () => renderPage(<QuestionsPanel competitionId={7} />, '/');

/** The upload stored: the list now describes the program. */
const stored = () => {
  questions = questions.map((q) => ({ ...q, scorer: UPLOADED }));
  return UPLOADED;
};

const pick = (input: HTMLElement, name: string, text = 'x') => fireEvent.change(input, { target: { files: [new File([text], name)] } });

async function openScorer() {
  show();
  fireEvent.click(await screen.findByText('评分程序'));
  return (await screen.findByText(/^评分程序：/)).closest('.ant-modal') as HTMLElement;
}

describe('a question’s own scoring program in the back office', { timeout: 60_000 }, () => {
  it('says the program is missing, with its contract and example, and cannot be tried before it is uploaded', async () => {
    questions = [question({})];
    show();
    expect(await screen.findByText('未上传程序')).toBeTruthy();
    fireEvent.click(await screen.findByText('评分程序'));
    const dialog = (await screen.findByText(/^评分程序：/)).closest('.ant-modal') as HTMLElement;
    expect(within(dialog).getByText('尚未上传评分程序，参赛者还不能提交测试')).toBeTruthy();
    expect(
      within(dialog)
        .getByRole('button', { name: /用预测文件试运行/ })
        .hasAttribute('disabled'),
    ).toBe(true);
    expect(within(dialog).getByText('请先上传评分程序，才能试运行')).toBeTruthy();
    const contract = within(dialog).getByTestId('scorer-contract').textContent!;
    expect(contract).toContain('python3 score.py answer.csv prediction.csv');
    expect(contract).toContain('{"score": 有限数字}');
    expect(contract).toContain('每次运行限时120秒');

    // The example downloads as score.py, holding the shared example.
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (blobs.push(b), 'blob:example'), revokeObjectURL: () => {} }));
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    fireEvent.click(within(dialog).getByRole('button', { name: /下载示例 score\.py/ }));
    expect(clicked).toEqual(['score.py']);
    expect(await blobs[0]!.text()).toBe(EXAMPLE_SCORER);
    click.mockRestore();
  });

  it('uploads a program and shows what it is; a refusal is shown with its reason', async () => {
    questions = [question({})];
    const dialog = await openScorer();
    api.answers['POST /api/question/scorer/11'] = new Error(
      '服务器无法安全运行评分程序：服务器未安装沙箱程序 bubblewrap（/usr/bin/bwrap），无法安全运行评分程序。',
    );
    pick(within(dialog).getByTestId('scorer-input'), 'score.py');
    expect((await within(dialog).findByTestId('scorer-error')).textContent).toContain('服务器未安装沙箱程序 bubblewrap');
    expect(within(dialog).queryByTestId('scorer-current')).toBeNull();

    api.answers['POST /api/question/scorer/11'] = stored;
    pick(within(dialog).getByTestId('scorer-input'), 'score.py');
    const current = await within(dialog).findByTestId('scorer-current');
    expect(current.textContent).toContain('score.py');
    expect(current.textContent).toContain('2.00 KB');
    expect(current.textContent).toContain('abababababababab…');
    expect(writes().map((w) => [w.at, w.body])).toEqual([
      ['POST /api/question/scorer/11', 'score.py'],
      ['POST /api/question/scorer/11', 'score.py'],
    ]);
    expect(within(dialog).queryByTestId('scorer-error')).toBeNull();
    expect(
      within(dialog)
        .getByRole('button', { name: /用预测文件试运行/ })
        .hasAttribute('disabled'),
    ).toBe(false);
  });

  it('tries the program: both scores, or the failure with the program’s standard error', async () => {
    questions = [question({ scorer: UPLOADED })];
    const dialog = await openScorer();
    const ok: ScorerTry = { ok: true, publicScore: 0.8125, privateScore: 0.790123456789, message: null, stderr: 'rows: 60', seconds: 1.52 };
    api.answers['POST /api/question/scorer/try/11'] = ok;
    pick(within(dialog).getByTestId('scorer-try-input'), 'pred.csv');
    const result = await within(dialog).findByTestId('scorer-try-result');
    // Rounded as the boards show it, the exact value on hover.
    expect(result.textContent).toContain('试运行成功：公榜得分 0.8125，私榜得分 0.790123（用时1.5秒）');
    expect(within(result).getByTitle('0.790123456789').textContent).toBe('0.790123');
    expect(within(dialog).getByTestId('scorer-stderr').textContent).toBe('rows: 60');

    const failed: ScorerTry = {
      ok: false,
      publicScore: null,
      privateScore: null,
      message: '公榜部分运行失败：评分程序异常退出（退出码1）',
      stderr: 'Traceback (most recent call last):\nKeyError: label',
      seconds: 0,
    };
    api.answers['POST /api/question/scorer/try/11'] = failed;
    pick(within(dialog).getByTestId('scorer-try-input'), 'pred.csv');
    await waitFor(() => expect(within(dialog).getByTestId('scorer-try-result').textContent).toContain('公榜部分运行失败：评分程序异常退出（退出码1）'));
    expect(within(dialog).getByTestId('scorer-stderr').textContent).toContain('KeyError: label');
    expect(within(dialog).queryByTestId('scorer-try-other')).toBeNull();

    // Both parts always run: the one that ran well is shown with its score.
    api.answers['POST /api/question/scorer/try/11'] = { ...failed, message: '私榜部分运行失败：评分程序异常退出（退出码1）', publicScore: 0.75, seconds: 2.04 };
    pick(within(dialog).getByTestId('scorer-try-input'), 'pred.csv');
    await waitFor(() => expect(within(dialog).getByTestId('scorer-try-result').textContent).toContain('私榜部分运行失败'));
    expect(within(dialog).getByTestId('scorer-try-other').textContent).toBe('公榜部分正常，得分 0.75（用时2.0秒）');
    expect(writes().map((w) => w.at)).toEqual(['POST /api/question/scorer/try/11', 'POST /api/question/scorer/try/11', 'POST /api/question/scorer/try/11']);
  });

  it('saves an own program’s direction and time limit, without a target column, from the question editor', async () => {
    // A target column sent through the API before is dropped: the program reads the columns the statement names.
    questions = [question({ evaluation: { ...CUSTOM, timeLimitSec: 90, targetColumn: 'label' }, scorer: UPLOADED })];
    show();
    fireEvent.click(await screen.findByText('编辑'));
    const dialog = (await screen.findByText('编辑赛题')).closest('.ant-modal') as HTMLElement;
    // The editor holds the program too: what is uploaded, its upload and try.
    expect((await within(dialog).findByTestId('scorer-current')).textContent).toContain('score.py');
    expect(within(dialog).queryByText('目标列名')).toBeNull();
    expect((within(dialog).getByLabelText('每次运行时间限制（秒）') as HTMLInputElement).value).toBe('90');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]!.body).toMatchObject({
      evaluation: { metric: 'custom', idColumn: 'id', publicPercent: 30, dailyLimit: 5, higherIsBetter: false, timeLimitSec: 90 },
    });
    expect((writes()[0]!.body as { evaluation: object }).evaluation).not.toHaveProperty('targetColumn');
  });

  it('asks a new question’s direction instead of assuming one, and opens its program’s window once it is saved', async () => {
    questions = [];
    show();
    fireEvent.click(await screen.findByRole('button', { name: /新建赛题/ }));
    const dialog = (await screen.findByText('新建赛题', { selector: '.ant-modal-title' })).closest('.ant-modal') as HTMLElement;
    fireEvent.change(within(dialog).getByLabelText('赛题名称'), { target: { value: 'B题 运输成本' } });
    const choose = async (label: string, option: string, search?: string) => {
      const input = within(dialog).getByLabelText(label);
      fireEvent.mouseDown(input.closest('.ant-select')!.querySelector('.ant-select-selector')!);
      // The metrics' list is long and virtual: the option is found as an organiser would, by typing.
      if (search) fireEvent.change(input, { target: { value: search } });
      fireEvent.click(await screen.findByTitle(option));
    };
    // No judging is assumed either: the metric's fields come with a choice that scores files.
    expect(within(dialog).queryByLabelText('评分指标')).toBeNull();
    fireEvent.click(within(dialog).getByLabelText('自动评分（提交测试）'));
    expect(within(dialog).getByTestId('judging-hint').textContent).toContain('按私榜得分排名');
    await choose('评分指标', '自定义评分程序（上传Python程序）', '自定义');
    // The example computes an error, lower is better: nothing is chosen for the organiser.
    await within(dialog).findByLabelText('得分方向');
    expect(within(dialog).getByText('保存赛题后会打开“评分程序”窗口，在其中上传评分程序并用预测文件试运行（之后也可在赛题列表中点“评分程序”）。')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: /下载示例 score\.py（算平均绝对误差，得分越低越好）/ })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('请选择得分方向')).toBeTruthy();
    expect(writes()).toEqual([]);

    await choose('得分方向', '越低越好');
    api.answers['POST /api/competition/question/7'] = { id: 11 };
    questions = [question({ title: 'B题 运输成本', answerRows: null })];
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({
      at: 'POST /api/competition/question/7',
      body: { title: 'B题 运输成本', judging: 'auto', evaluation: { metric: 'custom', higherIsBetter: false } },
    });
    // What comes next for such a question is its program: its window opens on the question just made.
    const scorer = (await screen.findByText('评分程序：B题 运输成本')).closest('.ant-modal') as HTMLElement;
    expect(within(scorer).getByText('尚未上传评分程序，参赛者还不能提交测试')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('新建赛题', { selector: '.ant-modal-title' })).toBeNull());
  });

  it('lists the competition’s failed submissions, with the program’s standard error the team never sees', async () => {
    questions = [question({ scorer: UPLOADED })];
    show();
    fireEvent.click(await screen.findByText('失败记录'));
    const dialog = (await screen.findByText('评分失败记录')).closest('.ant-modal') as HTMLElement;
    const row = (await within(dialog).findByText('视觉先锋')).closest('tr')!;
    expect(row.textContent).toContain('评分失败：评分程序异常退出（退出码1）');
    expect(row.textContent).toContain('boxes.csv');
    // Whose side each failure is on: the program's crash is the organisers' to fix, a short file the team's.
    expect(row.textContent).toContain('需主办方处理');
    const refused = within(dialog).getByText('数据猎人').closest('tr')!;
    expect(refused.textContent).toContain('队伍文件有误');
    expect(within(refused).queryByRole('button')).toBeNull();
    fireEvent.click(within(row).getByRole('button'));
    expect((await within(dialog).findByTestId('failure-stderr')).textContent).toContain('ZeroDivisionError: division by zero');
  });
});
