import type { BatchResult, Invoice, InvoiceListQuery, Page } from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type ListParams } from './list.ts';

export type InvoiceListParams = ListParams<InvoiceListQuery>;

/** Invoice applications (spec §7 `/api/invoice/*`). */
export const invoiceUrls = { list: '/api/invoice/list' } as const;

export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (q: InvoiceListParams) => [...invoiceKeys.all, q] as const,
};

export const invoiceApi = {
  list: (q: InvoiceListParams) => http.get<Page<Invoice>>(invoiceUrls.list, params(q)),
  issue: (id: number, body: { invoiceNo: string; fileUri: string | undefined }) => http.put<void>(`/api/invoice/issue/${id}`, body),
  reject: (id: number, reason: string) => http.put<void>(`/api/invoice/reject/${id}`, { reason }),
  rejectBatch: (ids: number[], reason: string) => http.put<BatchResult>('/api/invoice/reject/batch', { ids, reason }),
};
