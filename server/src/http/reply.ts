import { OK_MESSAGE, type Envelope, type Page } from '@contest/shared';
import type { FastifyReply } from 'fastify';

export function ok<T>(data: T, message = OK_MESSAGE): Envelope<T> {
  return { status: 200, message, data };
}

export function page<T>(list: T[], total: number, q: { page: number; limit: number }): Envelope<Page<T>> {
  return ok({ list, total, page: q.page, limit: q.limit });
}

/**
 * Sends an envelope serialised beforehand: the busiest public reads keep theirs serialised in their cache, since turning
 * the same objects into JSON on every request cost a third of what such a read takes.
 */
export function sendJson(reply: FastifyReply, json: string) {
  return reply.type('application/json; charset=utf-8').send(json);
}
