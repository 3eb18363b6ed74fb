import type { Coordinator, CoordinatorBody, MyCoordination, PayResult, SchoolDashboard, SchoolInvoiceBody, SchoolOrder, VoucherBody } from '@contest/shared';
import { http } from '../common/http.ts';

/** School coordinators (院校负责人, issue 36): organisers appoint them; a coordinator reviews and follows its school's teams. */
export const coordinatorKeys = {
  all: ['coordinators'] as const,
  ofCompetition: (competitionId: number) => ['coordinators', 'competition', competitionId] as const,
  mine: ['coordinators', 'mine'] as const,
  dashboard: (competitionId: number, schoolId: number) => ['coordinators', 'dashboard', competitionId, schoolId] as const,
  orders: (competitionId: number, schoolId: number) => ['coordinators', 'orders', competitionId, schoolId] as const,
};

export const coordinatorUrls = {
  template: '/api/school/coordinator/template',
  certificates: (competitionId: number, schoolId: number) => `/api/school/coordinator/certificates/${competitionId}?schoolId=${schoolId}`,
  import: (competitionId: number, schoolId: number, mode: string) => `/api/school/coordinator/import/${competitionId}?schoolId=${schoolId}&mode=${mode}`,
};

export const coordinatorApi = {
  list: (competitionId: number) => http.get<Coordinator[]>(`/api/competition/coordinator/${competitionId}`),
  appoint: (competitionId: number, body: CoordinatorBody) => http.post<{ id: number }>(`/api/competition/coordinator/${competitionId}`, body),
  revoke: (id: number) => http.delete<void>(`/api/competition/coordinator/item/${id}`),
  mine: () => http.get<MyCoordination>('/api/school/coordinator/mine'),
  dashboard: (competitionId: number, schoolId: number) => http.get<SchoolDashboard>(`/api/school/coordinator/teams/${competitionId}`, { schoolId }),
  audit: (registerId: number, action: 'approve' | 'reject', reason?: string) =>
    http.post<void>(`/api/school/coordinator/audit/${registerId}`, { action, ...(reason ? { reason } : {}) }),
  // 统一缴费: one order for many of the school's teams, paid online or by transfer, and one invoice of it.
  orders: (competitionId: number, schoolId: number) => http.get<SchoolOrder[]>(`/api/school/coordinator/orders/${competitionId}`, { schoolId }),
  openOrder: (competitionId: number, schoolId: number, teamIds: number[]) =>
    http.post<{ id: number }>(`/api/school/coordinator/order/${competitionId}?schoolId=${schoolId}`, { teamIds }),
  closeOrder: (id: number) => http.put<void>(`/api/school/coordinator/order/close/${id}`),
  voucher: (id: number, body: VoucherBody) => http.put<void>(`/api/school/coordinator/order/voucher/${id}`, body),
  pay: (id: number, method: number | undefined) => http.post<PayResult>(`/api/school/coordinator/order/pay/${id}`, { method }),
  invoice: (id: number, body: SchoolInvoiceBody) => http.post<{ id: number }>(`/api/school/coordinator/order/invoice/${id}`, body),
};
