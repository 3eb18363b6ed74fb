// @vitest-environment happy-dom
import type { InvoiceConfig, Order, Page } from '@contest/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import InvoiceConfigPage from '../admin/pages/financial/InvoiceConfigPage.tsx';
import MyInvoicePage from './pages/invoice/MyInvoicePage.tsx';

const api = useFakeApi();

const page = <T,>(list: T[]): Page<T> => ({ list, total: list.length, page: 1, limit: 100 });
const config: InvoiceConfig = {
  enable: true,
  issuerName: '泰迪杯组委会',
  issuerTaxNo: '91440101MA5C111101',
  allowedTypes: ['normal'],
  applyStart: null,
  applyEnd: null,
  notice: null,
  updatedAt: null,
};
const order = (id: number, competitionName: string, invoiceEnable: boolean) =>
  ({
    id,
    orderNo: `N${id}`,
    competitionId: id,
    competitionName,
    teamId: id,
    teamNo: `T${id}`,
    teamName: `队伍${id}`,
    amount: 5000,
    payStatus: 1,
    invoiceEnable,
  }) as Order;

describe('applying for an invoice', () => {
  it('lists a paid order of a competition without invoices greyed, saying why, and applies for the others', async () => {
    api.answers = {
      '/api/invoice/config/public': config,
      'GET /api/invoice/person/page': page([]),
      'GET /api/order/person/page': page([order(1, '泰迪杯', true), order(2, '不开票杯', false)]),
      '/api/invoice/title/list': [{ id: 9, kind: 'personal', name: '张三', taxNo: null }],
      'POST /api/invoice/apply': null,
    };
    renderPage(<MyInvoicePage />, '/userCenter/myInvoice');
    const apply = await screen.findByRole('button', { name: '申请发票' });
    await waitFor(() => expect(apply.hasAttribute('disabled')).toBe(false));
    fireEvent.click(apply);
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getAllByRole('combobox')[0]!);
    const closed = await screen.findByText('不开票杯 · 队伍2 · ¥50.00（该竞赛未开放发票申请）');
    expect(closed.closest('.ant-select-item')!.className).toContain('disabled');
    fireEvent.click(closed);
    fireEvent.click(screen.getByText('泰迪杯 · 队伍1 · ¥50.00'));
    fireEvent.mouseDown(within(dialog).getAllByRole('combobox')[2]!);
    fireEvent.click(await screen.findByText('张三'));
    fireEvent.click(within(dialog).getByRole('button', { name: '提交申请' }));
    await waitFor(() => expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({ orderId: 1, titleId: 9, type: 'normal' }));
  });
});

describe('the invoice configuration', () => {
  const open = (codes: string[]) => {
    api.answers = {
      '/api/team/userinfo/': { id: 2, username: 'org', userName: '李老师', faceImg: null },
      '/api/team/userinfo/permission': codes,
      '/api/invoice/config': config,
    };
    renderPage(<InvoiceConfigPage />, '/financial/invoiceConfig');
  };

  it('tells an organiser, who reads it, who sets it and where a competition opens invoices', async () => {
    open(['invoice:config:menu']);
    await waitFor(() => expect(api.requests.some((r) => r.url === '/api/team/userinfo/permission')).toBe(true));
    expect(await screen.findByText('发票配置由平台管理员统一设置，此处仅供查看')).toBeTruthy();
    expect(screen.getByText(/在竞赛的「基本信息」中勾选「开放发票申请」/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /保\s*存/ })).toBeNull();
  });

  it('lets the platform administrator edit it, without the notice', async () => {
    open(['invoice:config:menu', 'invoice:config:edit']);
    expect(await screen.findByRole('button', { name: /保\s*存/ })).toBeTruthy();
    expect(screen.getByText('关闭后所有竞赛都暂停发票申请；开启时，由各竞赛在「基本信息」中决定是否开放')).toBeTruthy();
    expect(screen.queryByText('发票配置由平台管理员统一设置，此处仅供查看')).toBeNull();
  });
});
