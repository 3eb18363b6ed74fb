import type { BatchResult, Order, OrderListQuery, Page, SchoolOrder, SchoolOrderListQuery } from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type ListParams } from './list.ts';

export type OrderListParams = ListParams<OrderListQuery>;
/** The caller's own orders (the site's user centre): a page, optionally of one payment state. */
export type MyOrderParams = { page?: number; limit: number; payStatus?: number };

/** Orders (spec §7 `/api/order/*`). */
export const orderUrls = { list: '/api/order/list' } as const;

export const orderKeys = {
  all: ['orders'] as const,
  list: (q: OrderListParams) => [...orderKeys.all, q] as const,
  mineAll: ['myOrders'] as const,
  /** A page of the caller's orders, or `'paid'`: those an invoice may be applied for. */
  mine: (q: MyOrderParams | 'paid') => [...orderKeys.mineAll, q] as const,
  detail: (id: number) => ['order', id] as const,
  /** Finance's list of schools' 统一缴费 orders. */
  schoolList: (q: ListParams<SchoolOrderListQuery>) => [...orderKeys.all, 'school', q] as const,
};

export const orderApi = {
  list: (q: OrderListParams) => http.get<Page<Order>>(orderUrls.list, params(q)),
  confirm: (id: number) => http.put<void>(`/api/order/confirm/${id}`),
  confirmBatch: (ids: number[]) => http.put<BatchResult>('/api/order/confirm/batch', { ids }),
  batchPayment: (body: { ids: number[]; payerOrg: string; voucher: string | undefined }) =>
    http.put<{ paid: number[]; skipped: number[] }>('/api/order/batch/payment', body),
  refund: (id: number, reason: string) => http.put<void>(`/api/order/refund/${id}`, { reason }),
  mine: (q: MyOrderParams) => http.get<Page<Order>>('/api/order/person/page', { ...q }),
  /** Silent: the payment page says why the order cannot be shown. */
  detail: (id: number) => http.get<Order>(`/api/order/${id}`, undefined, { silent: true }),
  /** A new order for the team's registration (after one was closed). */
  createForTeam: (teamId: number) => http.post<{ id: number }>(`/api/order/team/${teamId}`),
  /** An offline payment's transfer voucher. */
  voucher: (id: number, body: { payMethod: number; voucher: string }) => http.put<void>(`/api/order/voucher/${id}`, body),
  close: (id: number) => http.put<void>(`/api/order/close/${id}`),
  /** Schools' 统一缴费 orders, for finance; confirming a school's transfer pays every team in it. */
  schoolList: (q: ListParams<SchoolOrderListQuery>) => http.get<Page<SchoolOrder>>('/api/order/school/list', params(q)),
  confirmSchool: (id: number) => http.put<void>(`/api/order/school/confirm/${id}`),
  refundSchool: (id: number, reason: string) => http.put<void>(`/api/order/school/refund/${id}`, { reason }),
};
