import type {
  BatchResult,
  Invoice,
  InvoiceApplyBody,
  InvoiceConfig,
  InvoiceConfigBody,
  InvoiceListQuery,
  InvoiceTitle,
  InvoiceTitleBody,
  Page,
} from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type ListParams } from './list.ts';

export type InvoiceListParams = ListParams<InvoiceListQuery>;
/** The caller's own applications (the site's user centre). */
export type MyInvoiceParams = { page?: number; limit: number };

/** Invoice applications (spec §7 `/api/invoice/*`). */
export const invoiceUrls = { list: '/api/invoice/list' } as const;

export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (q: InvoiceListParams) => [...invoiceKeys.all, q] as const,
  config: ['invoiceConfig'] as const,
  /** What a participant sees of the configuration (whether applying is open, the types, the notice). */
  publicConfig: ['invoiceConfig', 'public'] as const,
  mineAll: ['myInvoices'] as const,
  /** A page of the caller's applications, or `'all'`: every one, to tell which orders have one. */
  mine: (q: MyInvoiceParams | 'all') => [...invoiceKeys.mineAll, q] as const,
  titles: ['invoiceTitles'] as const,
};

export const invoiceApi = {
  list: (q: InvoiceListParams) => http.get<Page<Invoice>>(invoiceUrls.list, params(q)),
  issue: (id: number, body: { invoiceNo: string; fileUri: string | undefined }) => http.put<void>(`/api/invoice/issue/${id}`, body),
  reject: (id: number, reason: string) => http.put<void>(`/api/invoice/reject/${id}`, { reason }),
  rejectBatch: (ids: number[], reason: string) => http.put<BatchResult>('/api/invoice/reject/batch', { ids, reason }),
  config: () => http.get<InvoiceConfig>('/api/invoice/config'),
  saveConfig: (body: InvoiceConfigBody) => http.put<void>('/api/invoice/config', body),
  publicConfig: () => http.get<InvoiceConfig>('/api/invoice/config/public'),
  mine: (q: MyInvoiceParams) => http.get<Page<Invoice>>('/api/invoice/person/page', { ...q }),
  apply: (body: InvoiceApplyBody) => http.post<void>('/api/invoice/apply', body),
  /** The caller's common invoice titles. */
  titles: () => http.get<InvoiceTitle[]>('/api/invoice/title/list'),
  createTitle: (body: InvoiceTitleBody) => http.post<void>('/api/invoice/title', body),
  updateTitle: (id: number, body: InvoiceTitleBody) => http.put<void>(`/api/invoice/title/${id}`, body),
  removeTitle: (id: number) => http.delete<void>(`/api/invoice/title/${id}`),
};
