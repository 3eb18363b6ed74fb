// @vitest-environment happy-dom
import type { Preset, PresetField } from '@contest/shared';
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import RegistrationPage from './pages/team/RegistrationPage.tsx';

const api = useFakeApi();
// Rendering antd in happy-dom is slow on a busy machine: wait for what the page shows, not for a fixed second.
configure({ asyncUtilTimeout: 15_000 });

const later = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const fields: PresetField[] = [
  { name: 'userName', label: '姓名', description: null, otherParams: { required: true } },
  { name: 'custom1', label: '参赛动机', type: 'text', description: '说说为什么参赛', otherParams: { required: true } },
  { name: 'custom2', label: '学历', type: 'choice', options: ['本科', '硕士', '博士'], description: null, otherParams: { required: true } },
  { name: 'custom3', label: '在读证明', type: 'file', description: null, otherParams: { required: false } },
];
const presets = [
  {
    id: 1,
    competitionId: 3,
    menuCode: 'REG_SET',
    name: '报名设置',
    enable: true,
    enableStartTime: null,
    enableEndTime: null,
    deadlineStageId: null,
    fieldList: fields,
  },
] as Preset[];

const NO_RULES = { sameSchool: false, schoolAudit: false, maxTeamsPerSchool: null, maxTeamsPerTeacher: null, groupMode: 'none' as const, groupList: [] };

function open(eligibility: object = NO_RULES, fieldList: PresetField[] = fields) {
  api.answers = {
    '/api/team/userinfo/': { id: 5, username: 'zhangsan', userName: '张三' },
    '/api/competition/public/3': {
      id: 3,
      name: '泰迪杯',
      fee: 0,
      minMembers: 1,
      maxMembers: 3,
      maxTeachers: 2,
      allowIndividual: false,
      eligibility,
      regStartTime: later(-1),
      regEndTime: later(10),
      endTime: later(30),
      stages: [],
      phase: { code: 'registration' },
    },
    '/api/competition/preset/public/list/3': [{ ...presets[0]!, fieldList }],
    '/api/team/competition/3/detail': { team: null, invitations: [] },
  };
  renderPage(
    <Routes>
      <Route path="/registration/:competitionId" element={<RegistrationPage />} />
      <Route path="/competition/:id/team" element={<p>我的队伍</p>} />
    </Routes>,
    '/registration/3',
  );
}

const submitButton = () => screen.getByRole('button', { name: '提交报名' }) as HTMLButtonElement;
const submit = () => fireEvent.click(submitButton());
/** The button rests for three seconds after each click (spec §5's re-click guard). */
async function submitAgain() {
  await waitFor(() => expect(submitButton().disabled).toBe(false), { timeout: 10_000 });
  submit();
}

describe("the registration form with the organiser's own fields", { timeout: 60_000 }, () => {
  it('asks each in its own way, says what is missing, and sends the answers under extra', async () => {
    open();
    expect(await screen.findByLabelText('参赛动机')).toBeTruthy();
    expect(screen.getByText('说说为什么参赛')).toBeTruthy();
    // A choice of three is three radio buttons; the file is an upload button.
    expect(screen.getAllByRole('radio').map((r) => r.closest('label')!.textContent)).toEqual(['本科', '硕士', '博士']);
    expect(screen.getByRole('button', { name: '上传在读证明' })).toBeTruthy();

    fireEvent.change(screen.getByLabelText('队伍名称'), { target: { value: '数据先锋' } });
    submit();
    expect(await screen.findByText('请填写参赛动机')).toBeTruthy();
    expect(screen.getByText('请选择学历')).toBeTruthy();
    expect(api.requests.filter((r) => r.method === 'POST')).toEqual([]);

    fireEvent.change(screen.getByLabelText('参赛动机'), { target: { value: '学以致用' } });
    fireEvent.click(screen.getByRole('radio', { name: '硕士' }));
    // The server's refusal of a field lands beside it.
    api.answers['POST /api/team/register/3'] = Object.assign(new Error('在读证明无效，请重新上传'), {
      fields: { 'info.extra.custom3': '在读证明无效，请重新上传' },
    });
    await submitAgain();
    expect(await screen.findByText('在读证明无效，请重新上传', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    const sent = api.requests.find((r) => r.method === 'POST')!.body as { teamName: string; info: { userName: string; extra: Record<string, unknown> } };
    expect(sent.teamName).toBe('数据先锋');
    expect(sent.info.userName).toBe('张三');
    expect(sent.info.extra).toEqual({ custom1: '学以致用', custom2: '硕士' });

    api.answers['POST /api/team/register/3'] = { teamId: 9, orderId: null };
    await submitAgain();
    await waitFor(() => expect(screen.getByText('我的队伍')).toBeTruthy());
  });

  it('shows the eligibility rules before registering, asks for the school they need, and sends the chosen group', async () => {
    open(
      {
        sameSchool: true,
        schoolAudit: false,
        maxTeamsPerSchool: 2,
        maxTeamsPerTeacher: null,
        groupMode: 'choice',
        groupList: [
          { name: '本科组', degrees: [] },
          { name: '研究生组', degrees: [] },
        ],
      },
      [fields[0]!],
    );
    const rules = await screen.findByTestId('eligibility-rules');
    expect(rules.textContent).toContain('队员和指导老师须来自同一学校');
    expect(rules.textContent).toContain('每所学校最多报名2支队伍');
    expect(rules.textContent).toContain('分组参赛：本科组、研究生组');
    // 学校 was not on the organiser's form: the rules add it, required.
    expect(screen.getByText('本竞赛按学校限定参赛资格')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('队伍名称'), { target: { value: '同校队' } });
    submit();
    expect(await screen.findByText('请选择参赛组别')).toBeTruthy();
    expect(screen.getByText('请填写学校')).toBeTruthy();
    expect(api.requests.filter((r) => r.method === 'POST')).toEqual([]);
    fireEvent.click(screen.getByRole('radio', { name: '研究生组' }));
    fireEvent.change(screen.getByLabelText('学校'), { target: { value: '甲大学' } });
    api.answers['POST /api/team/register/3'] = { teamId: 9, orderId: null };
    await submitAgain();
    await waitFor(() => expect(screen.getByText('我的队伍')).toBeTruthy());
    const sent = api.requests.find((r) => r.method === 'POST')!.body as { groupName: string; info: { organization: string } };
    expect([sent.groupName, sent.info.organization]).toEqual(['研究生组', '甲大学']);
  });
});
