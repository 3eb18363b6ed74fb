// @vitest-environment happy-dom
import { ACTION_CODES, MENU_CODES, MENU_NAMES, REG_FIELDS, type MenuCode, type Preset } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { Link, RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { useFakeApi } from '../test/fakeApi.tsx';
import CompetitionEditPage from './pages/competition/CompetitionEditPage.tsx';
import { PresetsPanel } from './pages/competition/parts/PresetsPanel.tsx';

// wangEditor does not run in happy-dom: a text area stands in for it.
vi.mock('./components/RichTextEditor.tsx', () => ({
  default: ({ value, onChange }: { value?: string | null; onChange?: (html: string) => void }) => (
    <textarea value={value ?? ''} onChange={(e) => onChange?.(e.target.value)} />
  ),
}));

/** The API as a table of answers (test/fakeApi.tsx); the writes are the requests other than GET. */
const api = useFakeApi();
const writes = () => api.requests.filter((r) => r.method !== 'GET');

/** How long an answer may take to show on a busy machine: the editor renders ten cards with date pickers. */
const SLOW = 10_000;
const COMPETITION = 7;
const LIST = `/api/competition/preset/public/list/${COMPETITION}`;
const BATCH = `PUT /api/competition/preset/batch/${COMPETITION}`;

/** A new competition's presets: registration, questions and data, and information on. */
const presets = (): Preset[] =>
  MENU_CODES.map((menuCode, i) => ({
    id: 100 + i,
    competitionId: COMPETITION,
    menuCode,
    name: MENU_NAMES[menuCode],
    enable: ['REG_SET', 'QUES_AND_DATA', 'COMP_INFO'].includes(menuCode),
    enableStartTime: null,
    deadlineStageId: null,
    realName: false,
    enableEndTime: null,
    fieldList: menuCode === 'REG_SET' ? REG_FIELDS.slice(0, 3).map((f) => ({ ...f, description: null, otherParams: { required: true } })) : [],
  }));

/** The batch call as the server answers it: the presets with the batch applied. */
function serverSaves() {
  api.answers[BATCH] = (body: { presets: Partial<Record<MenuCode, Partial<Preset>>> }) => {
    const saved = (api.answers[LIST] as Preset[]).map((p) => ({ ...p, ...body.presets[p.menuCode] }));
    api.answers[LIST] = saved;
    return saved;
  };
}

function client() {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

function openPanel(answers: Record<string, unknown> = {}) {
  api.answers = { [LIST]: presets(), ...answers };
  render(
    <AntApp>
      <QueryClientProvider client={client()}>
        <PresetsPanel competitionId={COMPETITION} editable />
      </QueryClientProvider>
    </AntApp>,
  );
}

const card = (name: string) => screen.getAllByTestId('menu-card').find((c) => within(c).queryByText(name, { selector: '.ant-card-head-title span' }))!;
const toggle = (name: string) => fireEvent.click(screen.getByRole('switch', { name: `启用${name}` }));

describe('the menus of a competition, on one form', () => {
  it('sends every switched menu in one request, marks the changed cards and clears the marks once saved', async () => {
    openPanel();
    await screen.findByRole('switch', { name: '启用选择赛题' });
    expect(screen.queryByText('有未保存的修改')).toBeNull();
    expect(screen.getByRole('button', { name: '保存菜单设置' })).toHaveProperty('disabled', true);

    toggle('选择赛题');
    toggle('提交作品');
    // Submitting works is kept for teams whose members all completed 实名认证; 选择赛题 has no such switch.
    fireEvent.click(screen.getByRole('switch', { name: '提交作品需实名认证' }));
    expect(screen.queryByRole('switch', { name: '选择赛题需实名认证' })).toBeNull();
    expect(await screen.findByText('有未保存的修改')).toBeTruthy();
    expect(screen.getByText('已修改 选择赛题、提交作品')).toBeTruthy();
    // The tag beside the name still tells the saved state; the change is marked apart.
    expect(within(card('选择赛题')).getByText('未启用')).toBeTruthy();
    expect(within(card('选择赛题')).getByText('未保存')).toBeTruthy();
    expect(within(card('提交作品')).getByText('未保存')).toBeTruthy();
    expect(within(card('竞赛信息')).queryByText('未保存')).toBeNull();
    expect(screen.getAllByText('未保存')).toHaveLength(2);

    serverSaves();
    fireEvent.click(screen.getByRole('button', { name: '保存菜单设置' }));
    await waitFor(() => expect(screen.queryByText('有未保存的修改')).toBeNull(), { timeout: SLOW });
    expect(writes()).toEqual([
      {
        method: 'PUT',
        url: `/api/competition/preset/batch/${COMPETITION}`,
        body: {
          presets: {
            CHOICE_SET: { enable: true, enableStartTime: null, enableEndTime: null, deadlineStageId: null },
            SUBMIT_WORKS: { enable: true, enableStartTime: null, enableEndTime: null, deadlineStageId: null, realName: true },
          },
        },
      },
    ]);
    expect(screen.queryAllByText('未保存')).toHaveLength(0);
    expect(within(card('选择赛题')).getByText('开放中')).toBeTruthy();
    expect(within(card('提交作品')).getByText('开放中')).toBeTruthy();
    expect(screen.getByRole('switch', { name: '启用提交作品' }).getAttribute('aria-checked')).toBe('true');
  });

  it('takes a stage chosen as a deadline, shows the deadline it gives, and asks before reopening submission after publication', async () => {
    openPanel({
      [`/api/competition/public/${COMPETITION}`]: {
        id: COMPETITION,
        endTime: '2026-06-29T16:00:00.000Z',
        stages: [
          { id: 31, competitionId: COMPETITION, name: '初赛', startDate: '2026-03-01T00:00:00.000Z', endDate: '2026-04-20T04:00:00.000Z', sort: 1 },
          { id: 32, competitionId: COMPETITION, name: '颁奖', startDate: '2026-07-01T00:00:00.000Z', endDate: null, sort: 2 },
        ],
      },
    });
    const note = await screen.findByTestId('deadline-SUBMIT_WORKS', {}, { timeout: SLOW });
    expect(note.textContent).toContain('现在的截止时间：2026-06-30 00:00（竞赛结束时间），北京时间');
    fireEvent.mouseDown(within(card('提交作品')).getByRole('combobox', { name: '提交作品的截止时间' }));
    // A stage without an end cannot close anything.
    const endless = await screen.findByText('阶段「颁奖」（未设结束时间，不可选）');
    expect(endless.closest('.ant-select-item')!.className).toContain('disabled');
    fireEvent.click(screen.getByText('阶段「初赛」结束（2026-04-20 12:00）'));
    await waitFor(() => expect(screen.getByTestId('deadline-SUBMIT_WORKS').textContent).toContain('现在的截止时间：2026-04-20 12:00（阶段「初赛」结束）'));
    expect(screen.getByText('已修改 提交作品')).toBeTruthy();

    // Results were published: the server says what saving would reopen; the organiser is asked, and confirms.
    const warning = '成绩已公布，此修改将重新开放「提交作品」（至 2026-04-20 12:00 截止）。确定重新开放吗？';
    let calls = 0;
    api.answers[BATCH] = (body: { presets: Partial<Record<MenuCode, Partial<Preset>>> }) => {
      if (calls++ === 0) return Object.assign(new Error(warning), { status: 409, fields: { reopen: warning } });
      const saved = (api.answers[LIST] as Preset[]).map((p) => ({ ...p, ...body.presets[p.menuCode] }));
      api.answers[LIST] = saved;
      return saved;
    };
    fireEvent.click(screen.getByRole('button', { name: '保存菜单设置' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(warning)).toBeTruthy();
    expect(writes()).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('button', { name: '确定重新开放' }));
    await waitFor(() => expect(writes()).toHaveLength(2), { timeout: SLOW });
    expect(writes().map((w) => w.url)).toEqual([`/api/competition/preset/batch/${COMPETITION}`, `/api/competition/preset/batch/${COMPETITION}?reopen=1`]);
    expect((writes()[1]!.body as { presets: Record<string, unknown> }).presets.SUBMIT_WORKS).toEqual({
      enable: false,
      enableStartTime: null,
      enableEndTime: null,
      deadlineStageId: 31,
      realName: false,
    });
    await waitFor(() => expect(screen.queryByText('有未保存的修改')).toBeNull(), { timeout: SLOW });
  });

  it('keeps the changes unsaved when the organiser chooses not to reopen', async () => {
    openPanel();
    await screen.findByRole('switch', { name: '启用提交测试' });
    toggle('提交测试');
    const warning = '成绩已公布，此修改将重新开放「提交测试」（至 2026-06-30 00:00 截止）。确定重新开放吗？';
    api.answers[BATCH] = Object.assign(new Error(warning), { status: 409, fields: { reopen: warning } });
    fireEvent.click(screen.getByRole('button', { name: '保存菜单设置' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '不重新开放' }));
    expect(await screen.findByText('未保存：这些修改会重新开放已截止的提交，您选择了不重新开放。')).toBeTruthy();
    expect(screen.getByText('有未保存的修改')).toBeTruthy();
    expect(writes()).toHaveLength(1);
  });

  it('counts a menu switched back as unchanged, and reset drops every change', async () => {
    openPanel();
    await screen.findByRole('switch', { name: '启用提交测试' });
    toggle('提交测试');
    toggle('赛题与数据');
    expect(await screen.findByText('已修改 赛题与数据、提交测试')).toBeTruthy();
    toggle('提交测试');
    expect(await screen.findByText('已修改 赛题与数据')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(screen.queryByText('有未保存的修改')).toBeNull());
    expect(screen.getByRole('switch', { name: '启用赛题与数据' }).getAttribute('aria-checked')).toBe('true');
    expect(writes()).toEqual([]);
  });

  it('puts a refused menu’s error beside its field and keeps every change unsaved', async () => {
    openPanel();
    await screen.findByRole('switch', { name: '启用选择赛题' });
    toggle('选择赛题');
    toggle('提交测试');
    api.answers[BATCH] = Object.assign(new Error('结束时间须晚于开始时间'), { fields: { 'presets.SUBMIT_TEST.enableEndTime': '结束时间须晚于开始时间' } });
    fireEvent.click(screen.getByRole('button', { name: '保存菜单设置' }));
    expect(await within(card('提交测试')).findByText('结束时间须晚于开始时间', {}, { timeout: SLOW })).toBeTruthy();
    expect(within(card('选择赛题')).queryByText('结束时间须晚于开始时间')).toBeNull();
    expect(screen.getByText('有未保存的修改')).toBeTruthy();
    expect(screen.getAllByText('未保存')).toHaveLength(2);
  });

  it("adds the organiser's own fields to the form: a choice needs two options, and the form is sent with their types and options", async () => {
    openPanel();
    await screen.findByRole('switch', { name: '启用选择赛题' });
    const reg = card('报名设置');
    fireEvent.click(within(reg).getByRole('button', { name: /新增自定义字段/ }));
    fireEvent.change(within(reg).getByLabelText('自定义1的显示名称'), { target: { value: '学历' } });
    // Its type: 文本 at first, made a choice.
    fireEvent.mouseDown(within(reg).getByRole('combobox', { name: '自定义1的类型' }));
    fireEvent.click(await screen.findByTitle('自定义单选'));
    const options = await within(reg).findByRole('combobox', { name: '学历的选项' });
    fireEvent.change(options, { target: { value: '本科' } });
    fireEvent.keyDown(options, { key: 'Enter', keyCode: 13 });
    // One option is not a choice: the form says so and nothing is sent.
    fireEvent.click(screen.getByRole('button', { name: '保存菜单设置' }));
    expect(await within(reg).findByText('“学历”至少需要2个选项', {}, { timeout: SLOW })).toBeTruthy();
    expect(writes()).toEqual([]);
    fireEvent.change(options, { target: { value: '硕士' } });
    fireEvent.keyDown(options, { key: 'Enter', keyCode: 13 });
    // A second field, a file the participants upload.
    fireEvent.click(within(reg).getByRole('button', { name: /新增自定义字段/ }));
    fireEvent.change(within(reg).getByLabelText('自定义2的显示名称'), { target: { value: '在读证明' } });
    fireEvent.mouseDown(within(reg).getByRole('combobox', { name: '自定义2的类型' }));
    fireEvent.click((await screen.findAllByTitle('自定义文件')).at(-1)!);
    fireEvent.click(within(reg).getByRole('switch', { name: '自定义2必填' }));
    expect(await within(reg).findByText(/参赛者上传一个 PDF、PNG 或 JPEG 文件/)).toBeTruthy();

    serverSaves();
    fireEvent.click(screen.getByRole('button', { name: '保存菜单设置' }));
    await waitFor(() => expect(writes()).toHaveLength(1), { timeout: SLOW });
    const sent = (writes()[0]!.body as { presets: { REG_SET: { fieldList: Preset['fieldList'] } } }).presets.REG_SET.fieldList;
    expect(sent.slice(3)).toEqual([
      { name: 'custom1', label: '学历', type: 'choice', options: ['本科', '硕士'], description: null, otherParams: { required: false } },
      { name: 'custom2', label: '在读证明', type: 'file', description: null, otherParams: { required: true } },
    ]);
  });

  it("says that 选择赛题 without a stage follows the submission menus, not the competition's end", async () => {
    openPanel({ [`/api/competition/public/${COMPETITION}`]: { id: COMPETITION, endTime: '2026-06-29T16:00:00.000Z', stages: [] } });
    const choice = await screen.findByRole('combobox', { name: '选择赛题的截止时间' }, { timeout: SLOW });
    expect(choice.closest('.ant-select')!.textContent).toContain('随提交截止');
    expect(within(card('提交作品')).getByRole('combobox', { name: '提交作品的截止时间' }).closest('.ant-select')!.textContent).toContain('竞赛结束时间');
  });

  it('shows organisers the menus’ Chinese names, never their codes', async () => {
    openPanel();
    await screen.findByRole('switch', { name: '启用选择赛题' });
    for (const code of MENU_CODES) expect(screen.getAllByText(MENU_NAMES[code]).length).toBeGreaterThan(0);
    const text = document.body.textContent ?? '';
    for (const code of MENU_CODES) expect(text).not.toContain(code);
  });
});

describe('leaving the competition editor with unsaved menus', () => {
  /** The newest confirmation dialog (a closed one may linger while it animates out). */
  async function nextDialog(before: number) {
    await waitFor(() => expect(screen.queryAllByRole('dialog', { hidden: true }).length).toBe(before + 1));
    return screen.getAllByRole('dialog', { hidden: true }).at(-1)!;
  }

  /**
   * Opens the editor as the back office does, under a data router, after the home page in the history; a link stands
   * for the layout's ways out (sidebar, tag tabs, breadcrumb), which are all router navigations. Returns the router.
   */
  async function openEditorWithChange() {
    api.answers = {
      '/api/team/userinfo/': { id: 2, username: 'org', userName: '李老师', faceImg: null },
      '/api/team/userinfo/permission': ['competition:competition:menu', ACTION_CODES.competitionEdit],
      [`/api/competition/public/${COMPETITION}`]: {
        id: COMPETITION,
        name: '菜单测试竞赛',
        auditStatus: 0,
        auditReply: null,
        brandId: 1,
        orgId: 1,
        stages: [],
        activeStageId: 0,
        regStartTime: '2026-03-10T00:00:00.000Z',
        regEndTime: '2026-04-10T00:00:00.000Z',
        endTime: '2026-06-30T00:00:00.000Z',
        fee: 0,
        allowIndividual: true,
        eligibility: { sameSchool: false, schoolAudit: false, maxTeamsPerSchool: null, maxTeamsPerTeacher: null, groupMode: 'none' as const, groupList: [] },
        minMembers: 1,
        maxMembers: 3,
        maxTeachers: 1,
        worksMaxMb: 100,
        worksTypes: 'zip',
      },
      [`/api/competition/stages/public/list/${COMPETITION}`]: [],
      [LIST]: presets(),
    };
    const router = createMemoryRouter(
      [
        { path: '/index', element: <p>首页内容</p> },
        {
          path: '/competition/edit/:competitionId',
          element: (
            <>
              <Link to="/index">首页</Link>
              <CompetitionEditPage />
            </>
          ),
        },
        { path: '/competition/manager', element: <p>竞赛列表页</p> },
      ],
      { initialEntries: ['/index', `/competition/edit/${COMPETITION}`], initialIndex: 1 },
    );
    render(
      <AntApp>
        <QueryClientProvider client={client()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>,
    );
    fireEvent.click(await screen.findByRole('tab', { name: '菜单设置' }));
    await screen.findByRole('switch', { name: '启用训练平台' });
    toggle('训练平台');
    expect(await screen.findByText('有未保存的修改')).toBeTruthy();
    return router;
  }

  it('asks before another tab of the editor or its own way back, and before the browser unloads', async () => {
    await openEditorWithChange();
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    // Another tab of the editor: the organiser stays to keep editing.
    fireEvent.click(screen.getByRole('tab', { name: '竞赛阶段' }));
    const dialog = await nextDialog(0);
    expect(within(dialog).getByText('菜单设置还没有保存，离开后这些修改将丢失。')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '继续编辑' }));
    expect(screen.getByRole('tab', { name: '菜单设置' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('switch', { name: '启用训练平台' }).getAttribute('aria-checked')).toBe('true');

    // Back to the list: dropping the changes leaves, and nothing is asked on unload any more.
    fireEvent.click(screen.getByRole('button', { name: '返回列表' }));
    fireEvent.click(within(await nextDialog(1)).getByRole('button', { name: '放弃修改', hidden: true }));
    expect(await screen.findByText('竞赛列表页', {}, { timeout: SLOW })).toBeTruthy();
    const later = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
    expect(writes()).toEqual([]);
  });

  it('holds back the browser’s back button and the layout’s links until the organiser chooses to drop the changes', async () => {
    const router = await openEditorWithChange();
    const editor = `/competition/edit/${COMPETITION}`;

    // Back: the organiser keeps editing, and stays on the editor with the change.
    await act(() => router.navigate(-1));
    fireEvent.click(within(await nextDialog(0)).getByRole('button', { name: '继续编辑' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(editor));
    expect(screen.getByRole('switch', { name: '启用训练平台' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.queryByText('首页内容')).toBeNull();

    // A link of the layout asks the same.
    fireEvent.click(screen.getByRole('link', { name: '首页' }));
    fireEvent.click(within(await nextDialog(1)).getByRole('button', { name: '继续编辑' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(editor));

    // Back again, dropping the changes this time: the previous page shows, and nothing was saved.
    await act(() => router.navigate(-1));
    fireEvent.click(within(await nextDialog(2)).getByRole('button', { name: '放弃修改', hidden: true }));
    expect(await screen.findByText('首页内容', {}, { timeout: SLOW })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/index');
    expect(writes()).toEqual([]);
  });
});
