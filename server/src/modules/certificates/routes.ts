import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  certBackgroundSchema,
  certListQuery,
  certPageQuery,
  certUploadQuery,
  certificateCheckSchema,
  certificateRunSchema,
  certificateSchema,
  certificateTemplateSchema,
  competitionIdParam,
  idParam,
  pageOf,
  pageQuery,
  relationBody,
  templateBody,
  templateQuery,
  verifyQuery,
  type Certificate,
} from '@contest/shared';
import { z } from 'zod';
import type { App, Deps } from '../../http/app-types.ts';
import { PUBLIC, USER, perm } from '../../http/access.ts';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../http/errors.ts';
import { fileReply, noDataReply, ok, page, replies } from '../../http/reply.ts';
import { beijingTime, streamXlsx, type Column } from '../../http/xlsx.ts';
import { sendStoredFile } from '../../http/send-file.ts';
import { publicOrigin } from '../../http/origin.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const GRADES = perm(ADMIN_MENU_CODES.question);
const EDIT = perm(ACTION_CODES.gradeEdit);
const BASE = '/api/review/certificate';
const EXPORT_COLUMNS: Column<Certificate>[] = [
  { header: '证书编号', value: (c) => c.certNo, width: 16 },
  { header: '姓名', value: (c) => c.holderName },
  { header: '身份', value: (c) => (c.holderKind === 'teacher' ? '指导教师' : '队员') },
  { header: '队伍名称', value: (c) => c.teamName, width: 24 },
  { header: '学校', value: (c) => c.school ?? '', width: 24 },
  { header: '奖项', value: (c) => c.awardName },
  { header: '生成时间', value: (c) => beijingTime(c.createdAt), width: 20 },
];

/** Certificates (spec §7 Certificates): templates, generation with progress, the holders' copies, public verification. */
export function certificateRoutes(app: App, deps: Deps) {
  const tags = ['certificates'];
  /** A certificate background from a browser's form upload (`cert/imgUrl`, `upload/{questionId}`). */
  const receiveBackground = async (req: FastifyRequest) => {
    if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
    const max = deps.config.documentMaxBytes;
    const part = await req.file({ limits: { files: 1, fileSize: max + 1 } });
    if (!part) throw badRequest('请选择证书背景图', { file: '请选择证书背景图' });
    return service.receiveBackground(userCtx(req), part.file, part.filename, max);
  };
  app.get(
    `${BASE}/page/:competitionId`,
    { config: { rule: GRADES }, schema: { tags, params: competitionIdParam, querystring: pageQuery, response: replies(pageOf(certificateTemplateSchema)) } },
    async (req) => {
      const { list, total } = await service.templatePage(req.ctx, req.params.competitionId, req.query);
      return page(list, total, req.query);
    },
  );
  app.post(`${BASE}/cert/imgUrl`, { config: { rule: EDIT }, schema: { tags, response: replies(certBackgroundSchema) } }, async (req) =>
    ok(await receiveBackground(req), '上传成功'),
  );
  // Spec URL base `upload/`: a question's certificate uploads, for those who may edit its certificates only.
  app.post(`${BASE}/upload/:id`, { config: { rule: EDIT }, schema: { tags, params: idParam, response: replies(certBackgroundSchema) } }, async (req) =>
    ok(await service.uploadBackground(userCtx(req), req.params.id, () => receiveBackground(req)), '上传成功'),
  );
  app.get(
    `${BASE}/upload/:id`,
    { config: { rule: EDIT }, schema: { tags, params: idParam, querystring: certUploadQuery, response: fileReply } },
    async (req, reply) => sendStoredFile(deps, req, reply, await service.uploadedFile(userCtx(req), req.params.id, req.query.fileUri)),
  );
  app.post(
    `${BASE}/relation/:id`,
    { config: { rule: EDIT }, schema: { tags, params: idParam, body: relationBody, response: replies(certificateRunSchema) } },
    async (req) => ok(await service.relate(req.ctx, req.params.id, req.body.templateId), '证书模板已选定'),
  );
  app.get(`${BASE}/cert/push/:id`, { config: { rule: GRADES }, schema: { tags, params: idParam, response: replies(certificateRunSchema) } }, async (req) =>
    ok(await service.progress(req.ctx, req.params.id)),
  );
  app.post(`${BASE}/cert/push/:id`, { config: { rule: EDIT }, schema: { tags, params: idParam, response: replies(certificateRunSchema) } }, async (req) =>
    ok(await service.push(req.ctx, req.params.id, publicOrigin(deps.config, req)), '证书开始生成'),
  );
  app.get(
    `${BASE}/export/:id`,
    { config: { rule: GRADES }, schema: { tags, params: idParam, querystring: certPageQuery, response: replies(pageOf(certificateSchema)) } },
    async (req, reply) => {
      if (req.query.export)
        return streamXlsx(reply, '证书列表.xlsx', '证书', EXPORT_COLUMNS, await service.exportQuestionCertificates(req.ctx, req.params.id, req.query));
      const { list, total } = await service.questionCertificates(req.ctx, req.params.id, req.query);
      return page(list, total, req.query);
    },
  );
  app.get(
    `${BASE}/cert/list`,
    { config: { rule: USER }, schema: { tags, querystring: certListQuery, response: replies(z.array(certificateSchema)) } },
    async (req) => ok(await service.mine(userCtx(req), req.query.competitionId)),
  );
  // Spec `cert/cbda/list`: the same list, the caller's own certificates.
  app.get(
    `${BASE}/cert/cbda/list`,
    { config: { rule: USER }, schema: { tags, querystring: certListQuery, response: replies(z.array(certificateSchema)) } },
    async (req) => ok(await service.mine(userCtx(req), req.query.competitionId)),
  );
  app.get(`${BASE}/person/:id`, { config: { rule: USER }, schema: { tags, params: idParam, response: replies(z.array(certificateSchema)) } }, async (req) =>
    ok(await service.ofTeam(userCtx(req), req.params.id)),
  );
  app.get(`${BASE}/load/:id`, { config: { rule: USER }, schema: { tags, params: idParam, response: replies(certificateSchema) } }, async (req) =>
    ok((await service.load(userCtx(req), req.params.id)).certificate),
  );
  app.get(`${BASE}/cert/certificate/download/:id`, { config: { rule: USER }, schema: { tags, params: idParam, response: fileReply } }, async (req, reply) =>
    sendStoredFile(deps, req, reply, await service.download(userCtx(req), req.params.id)),
  );
  app.get(
    `${BASE}/public/verify/:certNo`,
    {
      config: { rule: PUBLIC },
      schema: { tags, params: z.object({ certNo: z.string().max(32) }), querystring: verifyQuery, response: replies(certificateCheckSchema) },
    },
    async (req) => ok(await service.verify(req.ctx, req.params.certNo, req.query.code)),
  );
  app.get(`${BASE}/:id`, { config: { rule: GRADES }, schema: { tags, params: idParam, response: replies(certificateTemplateSchema) } }, async (req) =>
    ok(await service.getTemplate(req.ctx, req.params.id)),
  );
  // Spec `POST /{id}` (query): the template as query parameters; a JSON body is taken too.
  app.post(
    `${BASE}/:competitionId`,
    {
      config: { rule: EDIT },
      schema: { tags, params: competitionIdParam, querystring: templateQuery, body: templateBody.nullish(), response: replies(certificateTemplateSchema) },
    },
    async (req) => ok(await service.createTemplate(userCtx(req), req.params.competitionId, service.templateInput(req.body, req.query)), '证书模板已创建'),
  );
  app.put(
    `${BASE}/:id`,
    { config: { rule: EDIT }, schema: { tags, params: idParam, body: templateBody, response: replies(certificateTemplateSchema) } },
    async (req) => ok(await service.updateTemplate(userCtx(req), req.params.id, req.body), '证书模板已保存'),
  );
  app.delete(`${BASE}/:id`, { config: { rule: EDIT }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.deleteTemplate(req.ctx, req.params.id);
    return ok(null, '证书模板已删除');
  });
}
