import { ACTION_CODES, ADMIN_MENU_CODES, CLIENT_NOT_PUBLISHED, clientBuildSchema, clientPackageSchema, clientStatusSchema } from '@contest/shared';
import { z } from 'zod';
import { PUBLIC, perm } from '../../http/access.ts';
import type { App, Deps } from '../../http/app-types.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { escapeHtml } from '../../http/html.ts';
import { publicOrigin, publicUrlMissing } from '../../http/origin.ts';
import { fileReply, ok, replies } from '../../http/reply.ts';
import { contentDisposition } from '../../http/send-file.ts';
import * as service from './service.ts';

/** A browser that follows a link to a missing package gets a page saying what to do, not an error body. */
const notPublishedPage = (message: string) =>
  '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
  '<title>客户端尚未发布</title><style>body{margin:0;background:#f5f5f5;font:14px/1.7 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;color:#333}' +
  'main{max-width:480px;margin:15vh auto 0;padding:32px 40px;background:#fff;border-radius:8px;box-shadow:0 2px 8px rgba(0,0,0,.08)}' +
  'h1{margin:0 0 12px;font-size:20px}a{color:#1890ff;text-decoration:none}</style></head>' +
  `<body><main><h1>客户端尚未发布</h1><p>${escapeHtml(message)}。</p><p><a href="/">返回首页</a></p></main></body></html>`;

/**
 * The desktop client packages (spec §7 `/profile/clientApp-win.zip`, `/profile/clientApp-mac.zip`): which exist, their
 * build on the server, and their upload.
 */
export function desktopReleaseRoutes(app: App, deps: Deps) {
  const tags = ['client'];
  app.get(
    '/profile/:fileName',
    { config: { rule: PUBLIC }, schema: { hide: true, params: z.object({ fileName: z.string().max(50) }), response: { ...fileReply, 404: fileReply[200] } } },
    async (req, reply) => {
      // Spec §2.4, §7: the package is set up for the server it is downloaded from, whatever address it was built or
      // uploaded with: its config.json goes out with PUBLIC_URL (outside production, this request's own origin).
      const address = publicOrigin(deps.config, req);
      const { platform, download } = await service.download(deps, req.params.fileName, address && new URL(address).origin);
      if (!download) {
        if (!platform || !(req.headers.accept ?? '').includes('text/html')) throw notFound(CLIENT_NOT_PUBLISHED);
        return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(notPublishedPage(CLIENT_NOT_PUBLISHED));
      }
      reply
        .header('content-type', 'application/zip')
        .header('content-length', download.size)
        .header('content-disposition', contentDisposition(req.params.fileName))
        .header('cache-control', 'no-cache');
      return reply.send(download.body);
    },
  );
  app.get('/api/system/client/status', { config: { rule: PUBLIC }, schema: { tags, response: replies(clientStatusSchema) } }, async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return ok(await service.status(deps));
  });
  app.get(
    '/api/system/client',
    { config: { rule: perm(ADMIN_MENU_CODES.client) }, schema: { tags, response: replies(z.array(clientPackageSchema)) } },
    async () => ok(await service.list(deps)),
  );
  app.get('/api/system/client/build', { config: { rule: perm(ADMIN_MENU_CODES.client) }, schema: { tags, response: replies(clientBuildSchema) } }, async () =>
    ok(await service.buildState(deps)),
  );
  app.post(
    '/api/system/client/build',
    { config: { rule: perm(ACTION_CODES.clientEdit) }, schema: { tags, response: replies(clientBuildSchema) } },
    async (req) => {
      // The packages' config.json carries the address the client connects to: PUBLIC_URL (outside production, this
      // request's own origin).
      const origin = publicOrigin(deps.config, req);
      if (!origin) throw publicUrlMissing('生成客户端');
      return ok(await service.startBuild(req.ctx, origin), '客户端开始生成');
    },
  );
  app.post(
    '/api/system/client/:platform',
    {
      config: { rule: perm(ACTION_CODES.clientEdit) },
      schema: { tags, params: z.object({ platform: z.string().max(10) }), response: replies(clientPackageSchema) },
    },
    async (req) => {
      const platform = service.assertPlatform(req.params.platform);
      if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
      const part = await req.file({ limits: { files: 1, fileSize: deps.config.clientMaxBytes + 1 } });
      if (!part) throw badRequest('请选择客户端安装包', { file: '请选择客户端安装包' });
      return ok(await service.upload(req.ctx, platform, part.file, deps.config.clientMaxBytes), '客户端已发布');
    },
  );
}
