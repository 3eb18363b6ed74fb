import { messagePreferencesBody, messagePreferencesSchema, unsubscribedSchema, unsubscribeQuery } from '@contest/shared';
import { PUBLIC, USER } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { userCtx } from '../../http/auth.ts';
import { ok, replies } from '../../http/reply.ts';
import * as service from './service.ts';

export function outboxRoutes(app: App) {
  app.get(
    '/api/account/message-preferences',
    { config: { rule: USER }, schema: { tags: ['userinfo'], response: replies(messagePreferencesSchema) } },
    async (req) => ok(await service.preferences(userCtx(req))),
  );
  app.put(
    '/api/account/message-preferences',
    { config: { rule: USER }, schema: { tags: ['userinfo'], body: messagePreferencesBody, response: replies(messagePreferencesSchema) } },
    async (req) => ok(await service.savePreferences(userCtx(req), req.body.kinds), '消息设置已保存'),
  );

  // One click from an email: the page /unsubscribe posts the token; a mail client posts `List-Unsubscribe=One-Click`
  // (RFC 8058) to the address of the List-Unsubscribe header, with the token in its query. Either way, no login.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.post(
      '/api/account/unsubscribe',
      { config: { rule: PUBLIC }, schema: { tags: ['userinfo'], querystring: unsubscribeQuery, response: replies(unsubscribedSchema) } },
      async (req) => {
        const body = (req.body ?? {}) as { token?: unknown };
        const token = (req.query as { token?: string }).token ?? (typeof body.token === 'string' ? body.token : undefined);
        const done = await service.unsubscribe(req.ctx, token);
        return ok(done, `已退订${done.label}`);
      },
    );
  });
}
