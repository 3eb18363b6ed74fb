import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  STREAM_EVENT,
  type BoardEvent,
  messagePageQuery,
  messageSchema,
  noticeBody,
  noticePageQuery,
  noticeSchema,
  noticeTarget,
  pageOf,
  pageQuery,
  publishNoticeBody,
  recipientCountSchema,
  unreadCountSchema,
} from '@contest/shared';
import { z } from 'zod';
import type { App, Deps } from '../../http/app-types.ts';
import type { HubEvent } from './service.ts';
import { PUBLIC, USER, perm } from '../../http/access.ts';
import { fileReply, noDataReply, ok, page, replies } from '../../http/reply.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const BASE = '/api/message/notice';
const MENU = perm(ADMIN_MENU_CODES.notice);
const EDIT = perm(ACTION_CODES.noticeEdit);
const idParam = z.object({ id: z.coerce.number().int().positive('编号须为正整数') });
const competitionParam = z.object({ id: z.coerce.number().int().positive('竞赛编号须为正整数') });
const kindParam = z.object({ id: z.coerce.number().int().min(0, '消息类型须为0或1').max(1, '消息类型须为0或1') });
const HEARTBEAT_MS = 25_000;

/** Notices (spec §7 Notice): the back office writes and publishes them; every user reads their own box. */
export function noticeRoutes(app: App, deps: Deps) {
  const tags = ['notices'];
  app.get(`${BASE}/check/read`, { config: { rule: USER }, schema: { tags, response: replies(unreadCountSchema) } }, async (req) =>
    ok(await service.unread(req.ctx.db, userCtx(req).actor.userId)),
  );
  app.get(
    `${BASE}/page/:id`,
    { config: { rule: USER }, schema: { tags, params: kindParam, querystring: messagePageQuery, response: replies(pageOf(messageSchema)) } },
    async (req) => {
      const { list, total } = await service.box(userCtx(req), req.params.id, req.query);
      return page(list, total, req.query);
    },
  );
  // A competition's announcements: public, so a visitor's page asks too, but only the notices reaching the caller show.
  app.get(
    `${BASE}/competition/:id`,
    { config: { rule: PUBLIC }, schema: { tags, params: competitionParam, querystring: pageQuery, response: replies(pageOf(messageSchema)) } },
    async (req) => {
      const { list, total } = await service.competitionNotices(req.ctx, req.params.id, req.query);
      return page(list, total, req.query);
    },
  );
  app.put(
    `${BASE}/user/all`,
    {
      config: { rule: USER },
      schema: { tags, querystring: z.object({ kind: z.coerce.number().int().min(0).max(1).optional() }), response: replies(unreadCountSchema) },
    },
    async (req) => ok(await service.markRead(userCtx(req), 'all', req.query.kind), '已全部标为已读'),
  );
  app.put(`${BASE}/user/:id`, { config: { rule: USER }, schema: { tags, params: idParam, response: replies(unreadCountSchema) } }, async (req) =>
    ok(await service.markRead(userCtx(req), req.params.id)),
  );

  // Server-sent events: the unread counts now, then again whenever the user's box changes, on any server instance;
  // and a word whenever a scoring finishes on a question, so an open leaderboard redraws itself.
  app.get(`${BASE}/stream`, { config: { rule: USER }, schema: { tags, hide: true, response: fileReply } }, async (req, reply) => {
    const userId = userCtx(req).actor.userId;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // One chain, so events reach the browser in the order they happened.
    let sending = Promise.resolve();
    const write = (event: string, data: () => Promise<unknown> | unknown) => {
      sending = sending
        .then(async () => {
          const payload = JSON.stringify(await data());
          if (!res.destroyed) res.write(`event: ${event}\ndata: ${payload}\n\n`);
        })
        .catch((err: unknown) => req.log.error({ err }, 'message stream failed'));
    };
    const send = (event: HubEvent = { type: 'unread' }) => {
      if (event.type === 'board') write(STREAM_EVENT.board, () => ({ questionId: event.questionId }) satisfies BoardEvent);
      else write(STREAM_EVENT.unread, () => service.unread(deps.db, userId));
    };
    const stop = deps.hub.subscribe(userId, send);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    req.raw.on('close', () => {
      clearInterval(heartbeat);
      stop();
    });
    send();
  });

  app.get(`${BASE}/page`, { config: { rule: MENU }, schema: { tags, querystring: noticePageQuery, response: replies(pageOf(noticeSchema)) } }, async (req) => {
    const { list, total } = await service.noticePage(userCtx(req), req.query);
    return page(list, total, req.query);
  });
  app.post(
    `${BASE}/recipients`,
    { config: { rule: MENU }, schema: { tags, body: z.strictObject({ target: noticeTarget }), response: replies(recipientCountSchema) } },
    async (req) => ok(await service.countRecipients(userCtx(req), req.body.target)),
  );
  app.post(BASE, { config: { rule: EDIT }, schema: { tags, body: noticeBody, response: replies(noticeSchema) } }, async (req) =>
    ok(await service.create(userCtx(req), req.body), '通知已保存'),
  );
  app.put(`${BASE}/:id`, { config: { rule: EDIT }, schema: { tags, params: idParam, body: noticeBody, response: replies(noticeSchema) } }, async (req) =>
    ok(await service.update(userCtx(req), req.params.id, req.body), '通知已保存'),
  );
  app.post(
    `${BASE}/:id`,
    { config: { rule: EDIT }, schema: { tags, params: idParam, body: publishNoticeBody, response: replies(noticeSchema) } },
    async (req) => {
      const notice = await service.publish(userCtx(req), req.params.id, req.body.publishAt);
      return ok(notice, notice.publishedAt ? '通知已发布' : '通知将按时发布');
    },
  );
  app.delete(`${BASE}/:id`, { config: { rule: EDIT }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.remove(userCtx(req), req.params.id);
    return ok(null, '通知已删除');
  });
}
