// @vitest-environment happy-dom
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import CoordinatorPage from './pages/userCenter/CoordinatorPage.tsx';

const api = useFakeApi();
configure({ asyncUtilTimeout: 15_000 });

const team = (id: number, name: string, status: number, schoolStatus: number | null) => ({
  teamId: id,
  teamNo: `000000000${id}`,
  teamName: name,
  groupName: null,
  members: ['张三', '李四'],
  teachers: ['王老师'],
  registerId: 100 + id,
  status,
  schoolStatus,
  reason: null,
  payStatus: null as number | null,
  payable: false,
  schoolOrderNo: null as string | null,
  works: 0,
  tests: 0,
  results: [],
});

describe('院校负责人 in the personal centre', { timeout: 60_000 }, () => {
  it('says so to someone not appointed', async () => {
    api.answers = { '/api/school/coordinator/mine': [] };
    renderPage(<CoordinatorPage />, '/userCenter/school');
    expect(await screen.findByText('您还不是任何学校的院校负责人；由竞赛主办方或平台指定')).toBeTruthy();
  });

  it('shows the school’s teams with their state, and reviews one waiting for the school: a reason to refuse', async () => {
    api.answers = {
      '/api/school/coordinator/mine': [{ schoolId: 7, schoolName: '甲大学', competitions: [{ id: 3, name: '泰迪杯', schoolAudit: true, teams: 2 }] }],
      'GET /api/school/coordinator/teams/3': {
        competitionName: '泰迪杯',
        schoolName: '甲大学',
        schoolAudit: true,
        fee: 0,
        teams: [team(1, '等待队', 0, 0), team(2, '已过队', 1, 1)],
        summary: { teams: 2, waitingForSchool: 1, approved: 1, paid: 0, withWorks: 0, awarded: 0, certificates: 0 },
      },
      'POST /api/school/coordinator/audit/101': null,
    };
    renderPage(<CoordinatorPage />, '/userCenter/school');
    expect(await screen.findByText('等待队（0000000001）')).toBeTruthy();
    expect(screen.getByText(/本竞赛实行两级审核/)).toBeTruthy();
    const states = screen.getAllByTestId('school-team-state').map((e) => e.textContent);
    expect(states).toEqual(['待学校审核', '审核通过']);
    // Only the waiting team can be reviewed.
    expect(screen.getAllByRole('button', { name: /驳\s*回/ })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: /驳\s*回/ }));
    const dialog = await screen.findByRole('dialog');
    const confirm = () => fireEvent.click(dialog.querySelector('.ant-btn-primary') as HTMLElement);
    expect(dialog.querySelector('.ant-btn-primary')!.textContent!.replace(/\s/g, '')).toBe('驳回');
    confirm();
    expect(await screen.findByText('请填写驳回原因')).toBeTruthy();
    expect(api.requests.filter((r) => r.method === 'POST')).toEqual([]);
    fireEvent.change(screen.getByLabelText('驳回原因'), { target: { value: '缺少学生证' } });
    confirm();
    await waitFor(() => expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({ action: 'reject', reason: '缺少学生证' }));
    expect(api.requests.find((r) => r.method === 'POST')!.url).toBe('/api/school/coordinator/audit/101');
  });

  it('统一缴费: one order for the teams waiting for payment, ticked by default, the total on the button', async () => {
    const unpaid = (id: number, name: string) => ({ ...team(id, name, 1, 1), payStatus: 0, payable: true });
    api.answers = {
      '/api/school/coordinator/mine': [{ schoolId: 7, schoolName: '甲大学', competitions: [{ id: 3, name: '泰迪杯', schoolAudit: true, teams: 3 }] }],
      'GET /api/school/coordinator/teams/3': {
        competitionName: '泰迪杯',
        schoolName: '甲大学',
        schoolAudit: true,
        fee: 8800,
        // The third already paid: not offered.
        teams: [unpaid(1, '甲一队'), unpaid(2, '甲二队'), { ...team(3, '甲三队', 1, 1), payStatus: 1 }],
        summary: { teams: 3, waitingForSchool: 0, approved: 3, paid: 1, withWorks: 0, awarded: 0, certificates: 0 },
      },
      'GET /api/school/coordinator/orders/3': [],
      'GET /api/invoice/config/public': {
        enable: true,
        allowedTypes: ['normal'],
        issuerName: '',
        issuerTaxNo: '',
        applyStart: null,
        applyEnd: null,
        notice: null,
        updatedAt: null,
      },
      'POST /api/school/coordinator/order/3': { id: 1 },
    };
    renderPage(<CoordinatorPage />, '/userCenter/school');
    expect(await screen.findByText(/还没有统一缴费订单/)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: '为2支队伍统一缴费' }));
    const dialog = await screen.findByRole('dialog');
    const ok = () => dialog.querySelector('.ant-btn-primary') as HTMLElement;
    expect(ok().textContent).toBe('创建订单（2支队伍，¥176.00）');
    // Unticking a team takes it out of the order and the total.
    fireEvent.click(screen.getByLabelText('甲二队（0000000002）'));
    await waitFor(() => expect(ok().textContent).toBe('创建订单（1支队伍，¥88.00）'));
    fireEvent.click(ok());
    await waitFor(() => expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({ teamIds: [1] }));
    expect(api.requests.find((r) => r.method === 'POST')!.url).toBe('/api/school/coordinator/order/3?schoolId=7');
  });
});
