import {
  PAYMENT_METHOD_MENUS,
  alipaySettingsBody,
  idParam,
  offlineSettingsBody,
  payBody,
  payResultSchema,
  paymentConfigViewSchema,
  paymentMethodOptionSchema,
  wechatNoticeReplySchema,
  wechatSettingsBody,
} from '@contest/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PUBLIC, USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { badRequest } from '../../http/errors.ts';
import { publicOrigin } from '../../http/origin.ts';
import { fileReply, noDataReply, ok, replies } from '../../http/reply.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const methodParam = z.object({
  method: z.coerce
    .number()
    .int()
    .refine((m) => Boolean(PAYMENT_METHOD_MENUS[m]), '支付方式不存在'),
});
const BODIES: Record<number, z.ZodType> = {
  1: wechatSettingsBody,
  2: alipaySettingsBody,
  4: offlineSettingsBody,
  5: offlineSettingsBody,
  6: offlineSettingsBody,
};

/** The gateways' own answers to their notifications, success or failure: Alipay's are plain text, never JSON. */
const plainText = { 200: fileReply[200], 400: fileReply[200], 429: fileReply[200] };

export function paymentRoutes(app: App) {
  const tags = ['payment'];

  // Each method's settings are read under its own menu code and written under the payment-config action code.
  for (const [method, menu] of Object.entries(PAYMENT_METHOD_MENUS)) {
    app.get(`/api/payment/config/${method}`, { config: { rule: perm(menu.code) }, schema: { tags, response: replies(paymentConfigViewSchema) } }, async (req) =>
      ok(await service.readConfig(req.ctx, Number(method))),
    );
  }
  app.put(
    '/api/payment/config/:method',
    { config: { rule: perm(service.CONFIG_EDIT) }, schema: { tags, params: methodParam, body: z.record(z.string(), z.unknown()), response: noDataReply } },
    async (req) => {
      const parsed = BODIES[req.params.method]!.safeParse(req.body);
      if (!parsed.success) {
        const fields: Record<string, string> = {};
        for (const i of parsed.error.issues) fields[i.path.join('.') || '_'] ??= i.message;
        throw badRequest(Object.values(fields)[0]!, fields);
      }
      await service.saveConfig(req.ctx, req.params.method, parsed.data as never);
      return ok(null, '支付配置已保存');
    },
  );

  app.get('/api/payment/methods', { config: { rule: USER }, schema: { tags, response: replies(z.array(paymentMethodOptionSchema)) } }, async (req) =>
    ok(await service.methods(req.ctx)),
  );
  app.post(
    '/api/payment/pay/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, body: payBody, response: replies(payResultSchema) } },
    async (req) => ok(await service.pay(userCtx(req), req.params.id, req.body.method, publicOrigin(req.ctx.config, req))),
  );

  // Gateways' asynchronous notifications: the raw body is kept, since the signatures are over it.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));

    // Past the per-address limit, each gateway is answered in its own protocol's failure (it resends later), with 429.
    const overLimit = async (req: FastifyRequest, reply: FastifyReply) => {
      const hit = await service.admitNotice(req.ctx);
      if (!hit.allowed) reply.code(429).header('retry-after', String(Math.max(1, Math.ceil(hit.retryAfterMs / 1000))));
      return !hit.allowed;
    };

    // Alipay is answered in plain text, which the JSON serializer never sees.
    scope.post('/api/payment/notify/alipay', { config: { rule: PUBLIC, foreign: true }, schema: { hide: true, response: plainText } }, async (req, reply) => {
      if (await overLimit(req, reply)) return reply.type('text/plain').send('fail');
      const raw = String(req.body ?? '');
      const outcome = await service.alipayNotice(req.ctx, Object.fromEntries(new URLSearchParams(raw)), raw);
      // Alipay stops resending on the bare word `success`.
      return reply
        .type('text/plain')
        .code(service.ACCEPTED.includes(outcome) ? 200 : 400)
        .send(service.ACCEPTED.includes(outcome) ? 'success' : 'fail');
    });
    // WeChat Pay is answered in its own JSON (a failure with 4xx, as the gateway expects), not in the envelope.
    scope.post(
      '/api/payment/notify/wechat',
      {
        config: { rule: PUBLIC, foreign: true },
        schema: {
          hide: true,
          response: { 200: wechatNoticeReplySchema, 400: wechatNoticeReplySchema, 401: wechatNoticeReplySchema, 429: wechatNoticeReplySchema },
        },
      },
      async (req, reply) => {
        if (await overLimit(req, reply)) return reply.send({ code: 'FAIL', message: '通知过于频繁，请稍后重试' });
        const raw = String(req.body ?? '');
        const outcome = await service.wechatNotice(req.ctx, req.headers, raw);
        if (service.ACCEPTED.includes(outcome)) return reply.code(200).send({ code: 'SUCCESS', message: '成功' });
        return reply.code(outcome === 'forged' ? 401 : 400).send({ code: 'FAIL', message: outcome });
      },
    );
  });
}
