import type { Page, School, SchoolBody, SchoolOption, SchoolPageQuery } from '@contest/shared';
import { http } from '../common/http.ts';

/** The platform's list of schools (issue 36): the picker's options, and the back office's list. */
export const schoolKeys = {
  all: ['schools'] as const,
  list: (q: Partial<SchoolPageQuery>) => ['schools', 'page', q] as const,
  options: (keyword: string) => ['schools', 'options', keyword] as const,
};

export const schoolUrls = { import: '/api/system/school/import' };

export const schoolApi = {
  options: (keyword: string) => http.get<SchoolOption[]>('/api/school/options', { keyword }),
  list: (q: Partial<SchoolPageQuery>) => http.get<Page<School>>('/api/system/school/page', { ...q }),
  create: (body: SchoolBody) => http.post<{ id: number }>('/api/system/school', body),
  update: (id: number, body: SchoolBody) => http.put<void>(`/api/system/school/${id}`, body),
  remove: (id: number) => http.delete<void>(`/api/system/school/${id}`),
};
