import type { BatchResult, Order, OrderListQuery, Page } from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type ListParams } from './list.ts';

export type OrderListParams = ListParams<OrderListQuery>;

/** Orders (spec §7 `/api/order/*`). */
export const orderUrls = { list: '/api/order/list' } as const;

export const orderKeys = {
  all: ['orders'] as const,
  list: (q: OrderListParams) => [...orderKeys.all, q] as const,
};

export const orderApi = {
  list: (q: OrderListParams) => http.get<Page<Order>>(orderUrls.list, params(q)),
  confirm: (id: number) => http.put<void>(`/api/order/confirm/${id}`),
  confirmBatch: (ids: number[]) => http.put<BatchResult>('/api/order/confirm/batch', { ids }),
  batchPayment: (body: { ids: number[]; payerOrg: string; voucher: string | undefined }) => http.put<{ paid: number[]; skipped: number[] }>('/api/order/batch/payment', body),
  refund: (id: number, reason: string) => http.put<void>(`/api/order/refund/${id}`, { reason }),
};
