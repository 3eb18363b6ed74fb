import { z } from 'zod';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../http.ts';

// Every schema's default messages speak Chinese, on the server and in web forms alike.
z.config(z.locales.zhCN());

/** The reply envelope of every API call (spec §7): HTTP status equals `status`. */
export interface Envelope<T> {
  status: number;
  message: string;
  data: T;
}

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  limit: number;
}

export const OK_MESSAGE = '操作成功';

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1, '页码须为正整数').default(1),
  limit: z.coerce.number().int().min(1, '每页条数须为正整数').max(MAX_LIMIT, `每页最多${MAX_LIMIT}条`).default(DEFAULT_LIMIT),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const idParam = z.object({ id: z.coerce.number().int().positive('编号须为正整数') });
export const competitionIdParam = z.object({ competitionId: z.coerce.number().int().positive('编号须为正整数') });
