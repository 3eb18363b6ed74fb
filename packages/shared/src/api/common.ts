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

/**
 * Response schemas (the contract each route declares in routes.ts): the envelope around a route's data, and a page of
 * rows. Types for the web come from the same schemas (`z.infer`), so the server's replies and the pages' reading agree.
 */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ status: z.number().int(), message: z.string(), data });
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), total: z.number().int(), page: z.number().int(), limit: z.number().int() });
/** A reply whose data is `null` (most writes: the message says what happened). */
export const noData = z.null();
/** What a create answers: the new row's id. */
export const createdIdSchema = z.object({ id: z.number().int() });

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1, '页码须为正整数').default(1),
  limit: z.coerce.number().int().min(1, '每页条数须为正整数').max(MAX_LIMIT, `每页最多${MAX_LIMIT}条`).default(DEFAULT_LIMIT),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const idParam = z.object({ id: z.coerce.number().int().positive('编号须为正整数') });
export const competitionIdParam = z.object({ competitionId: z.coerce.number().int().positive('编号须为正整数') });
