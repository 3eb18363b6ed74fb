import fs from 'node:fs';
import path from 'node:path';
import { ACTION_CODES } from '@contest/shared';
import { z } from 'zod';
import type { Deps } from '../../context.ts';
import { PUBLIC, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { ok } from '../../http/reply.ts';
import { contentDisposition } from '../files/routes.ts';
import * as service from './service.ts';

/** The desktop client packages (spec §7 `/profile/clientApp-win.zip`, `/profile/clientApp-mac.zip`) and their upload. */
export function clientRoutes(app: App, deps: Deps) {
  const tags = ['client'];
  app.get('/profile/:fileName', { config: { rule: PUBLIC }, schema: { hide: true, params: z.object({ fileName: z.string().max(50) }) } }, async (req, reply) => {
    const platform = (Object.keys(service.CLIENT_PACKAGES) as service.ClientPlatform[]).find((p) => service.CLIENT_PACKAGES[p] === req.params.fileName);
    const file = platform && path.join(service.clientDir(deps), service.CLIENT_PACKAGES[platform]);
    const stat = file && (await fs.promises.stat(file).catch(() => null));
    if (!file || !stat) throw notFound('客户端尚未发布，请联系平台管理员');
    reply.header('content-type', 'application/zip').header('content-length', stat.size).header('content-disposition', contentDisposition(req.params.fileName)).header('cache-control', 'no-cache');
    return reply.send(fs.createReadStream(file));
  });
  app.get('/api/system/client', { config: { rule: perm('system:client:menu') }, schema: { tags } }, async () => ok(await service.list(deps)));
  app.post('/api/system/client/:platform', { config: { rule: perm(ACTION_CODES.clientEdit) }, schema: { tags, params: z.object({ platform: z.string().max(10) }) } }, async (req) => {
    const platform = service.assertPlatform(req.params.platform);
    if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
    const part = await req.file({ limits: { files: 1, fileSize: deps.config.clientMaxBytes + 1 } });
    if (!part) throw badRequest('请选择客户端安装包', { file: '请选择客户端安装包' });
    return ok(await service.upload(req.ctx, platform, part.file, deps.config.clientMaxBytes), '客户端已发布');
  });
}
