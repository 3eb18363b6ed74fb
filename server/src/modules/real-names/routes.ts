import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  idParam,
  maskIdCard,
  pageOf,
  realNameAuditBody,
  realNameBody,
  realNameDetailSchema,
  realNameListQuery,
  realNameRowSchema,
  realNameViewSchema,
} from '@contest/shared';
import { PUBLIC, USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { userCtx } from '../../http/auth.ts';
import { escapeHtml } from '../../http/html.ts';
import { noDataReply, ok, replies } from '../../http/reply.ts';
import * as service from './service.ts';

export function realNameRoutes(app: App) {
  app.get('/api/account/realname', { config: { rule: USER }, schema: { tags: ['account'], response: replies(realNameViewSchema) } }, async (req) =>
    ok(await service.view(userCtx(req))),
  );
  app.post(
    '/api/account/realname',
    { config: { rule: USER }, schema: { tags: ['account'], body: realNameBody, response: replies(realNameViewSchema) } },
    async (req) => {
      const v = await service.submit(userCtx(req), req.body);
      return ok(v, v.state === 'verified' ? '实名认证已通过' : '已提交，平台将在1至3个工作日内审核');
    },
  );

  const tags = ['system'];
  app.get(
    '/api/system/realname/list',
    { config: { rule: perm(ADMIN_MENU_CODES.realName) }, schema: { tags, querystring: realNameListQuery, response: replies(pageOf(realNameRowSchema)) } },
    async (req) => ok(await service.list(userCtx(req), req.query)),
  );
  app.get(
    '/api/system/realname/:id',
    { config: { rule: perm(ACTION_CODES.realNameAudit) }, schema: { tags, params: idParam, response: replies(realNameDetailSchema) } },
    async (req) => ok(await service.detail(userCtx(req), req.params.id)),
  );
  app.post(
    '/api/system/realname/:id/audit',
    { config: { rule: perm(ACTION_CODES.realNameAudit) }, schema: { tags, params: idParam, body: realNameAuditBody, response: noDataReply } },
    async (req) => {
      await service.audit(userCtx(req), req.params.id, req.body);
      return ok(null, req.body.pass ? '已通过，该账号完成实名认证' : '已驳回，申请人将收到原因');
    },
  );
}

const beijing = (iso: string) => new Date(iso).toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai', hour12: false });

/**
 * The ID-check simulator's page (IDCHECK_SIMULATOR on, never in production): its register of people, newest first, and
 * the numbers that stand for the register's other answers.
 */
export function idCheckSimulatorRoutes(app: App) {
  app.get('/simulator/idcheck', { config: { rule: PUBLIC }, schema: { hide: true } }, async (req, reply) => {
    const people = await service.simulatorPeople(req.ctx.db);
    const rows = people
      .map((p) => `<tr><td>${escapeHtml(beijing(p.createdAt))}</td><td>${escapeHtml(p.name)}</td><td>${escapeHtml(maskIdCard(p.number))}</td></tr>`)
      .join('');
    reply.type('text/html; charset=utf-8');
    return (
      '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>实名核验模拟器</title>' +
      '<style>body{font-family:"Noto Sans CJK SC",sans-serif;background:#f0f2f5;margin:0;padding:16px}main{max-width:960px;margin:0 auto;background:#fff;border-radius:8px;padding:24px}' +
      'h1{font-size:20px;margin:0 0 8px}.note{color:#888;font-size:13px}table{width:100%;border-collapse:collapse;margin-top:16px;font-size:14px}th,td{border-bottom:1px solid #eee;padding:8px;text-align:left}th{background:#fafafa}</style></head><body><main>' +
      '<h1>实名核验模拟器</h1><p class="note">开发与测试用：代替阿里云实人认证（身份证二要素核验），不连接真实的公安库。' +
      '模拟库里没有的身份证号，第一次核验时以所填姓名登记（之后只有这个姓名一致）；' +
      `顺序码（第15至17位）为 ${service.NO_RECORD_SEQUENCE} 的号码“查无此人”，为 ${service.ZHANG_SAN_SEQUENCE} 的号码登记姓名为“张三”（其他姓名均不一致）。</p>` +
      (rows
        ? `<table><thead><tr><th>登记时间</th><th>姓名</th><th>身份证号</th></tr></thead><tbody>${rows}</tbody></table>`
        : '<p>模拟库还是空的。在个人中心的“实名认证”提交居民身份证后，登记会出现在这里。</p>') +
      '</main></body></html>'
    );
  });
}
