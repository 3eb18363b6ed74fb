import { z } from 'zod';
import { envelope, noData, OK_MESSAGE, type Envelope, type Page } from '@contest/shared';
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

/** A row without its organisation id, which stays on the server. */
export const withoutOrg = <T extends { orgId: number }>({ orgId: _org, ...rest }: T): Omit<T, 'orgId'> => rest;

/** A route's response contract: HTTP 200 with the envelope around `data` (errors keep the error envelope). */
export const replies = <T extends z.ZodType>(data: T) => ({ 200: envelope(data) });
/** A write whose reply carries no data, only its message. */
export const noDataReply = replies(noData);
/** A route whose 200 is a file, a spreadsheet or an event stream rather than JSON; the serializer never sees it. */
export const FILE_REPLY = 'file or stream';
export const fileReply = { 200: z.unknown().describe(FILE_REPLY) };
/** A route that answers with a redirect (302) to a page, e.g. single sign-on. */
export const redirectReply = { 302: z.unknown().describe('redirect') };
