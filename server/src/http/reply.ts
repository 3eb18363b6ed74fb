import { OK_MESSAGE, type Envelope, type Page } from '@contest/shared';

export function ok<T>(data: T, message = OK_MESSAGE): Envelope<T> {
  return { status: 200, message, data };
}

export function page<T>(list: T[], total: number, q: { page: number; limit: number }): Envelope<Page<T>> {
  return ok({ list, total, page: q.page, limit: q.limit });
}
