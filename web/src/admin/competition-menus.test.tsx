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
  default: ({ value, onChange }: { value?: string | null; onChange?: (html: string) => void }) => <textarea value={value ?? ''} onChange={(e) => onChange?.(e.target.value)} />,
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

function openPanel() {
  api.answers = { [LIST]: presets() };
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
    expect(writes()).toEqual([{ method: 'PUT', url: `/api/competition/preset/batch/${COMPETITION}`, body: { presets: { CHOICE_SET: { enable: true, enableStartTime: null, enableEndTime: null }, SUBMIT_WORKS: { enable: true, enableStartTime: null, enableEndTime: null } } } }]);
    expect(screen.queryAllByText('未保存')).toHaveLength(0);
    expect(within(card('选择赛题')).getByText('开放中')).toBeTruthy();
    expect(within(card('提交作品')).getByText('开放中')).toBeTruthy();
    expect(screen.getByRole('switch', { name: '启用提交作品' }).getAttribute('aria-checked')).toBe('true');
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
