import { ACTION_CODES, ADMIN_MENU_CODES, SMS_PROVIDERS, maskPhone, smsConfigBody, smsConfigViewSchema, smsTestBody, smsTestReplySchema } from '@contest/shared';
import { PUBLIC, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { escapeHtml } from '../../http/html.ts';
import { noDataReply, ok, replies } from '../../http/reply.ts';
import * as service from './service.ts';

const tags = ['system'];

export function smsRoutes(app: App) {
  app.get(
    '/api/system/sms/config',
    { config: { rule: perm(ADMIN_MENU_CODES.messaging) }, schema: { tags, response: replies(smsConfigViewSchema) } },
    async (req) => ok(await service.readConfig(req.ctx)),
  );
  app.put(
    '/api/system/sms/config',
    { config: { rule: perm(ACTION_CODES.messagingEdit) }, schema: { tags, body: smsConfigBody, response: noDataReply } },
    async (req) => {
      await service.saveConfig(req.ctx, req.body);
      return ok(null, '短信配置已保存');
    },
  );
  app.post(
    '/api/system/sms/test',
    { config: { rule: perm(ACTION_CODES.messagingEdit) }, schema: { tags, body: smsTestBody, response: replies(smsTestReplySchema) } },
    async (req) => ok(await service.testSend(req.ctx, req.body.phone), '测试短信已发出，请查看手机'),
  );
}

/** A time as people in China read it. */
const beijing = (iso: string) => new Date(iso).toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai', hour12: false });

const page = (inner: string) =>
  '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
  '<meta http-equiv="refresh" content="5"><title>短信模拟器</title>' +
  '<style>body{font-family:"Noto Sans CJK SC",sans-serif;background:#f0f2f5;margin:0;padding:16px}main{max-width:960px;margin:0 auto;background:#fff;border-radius:8px;padding:24px}' +
  'h1{font-size:20px;margin:0 0 8px}.note{color:#888;font-size:13px}table{width:100%;border-collapse:collapse;margin-top:16px;font-size:14px}' +
  'th,td{border-bottom:1px solid #eee;padding:8px;text-align:left;vertical-align:top;word-break:break-all}th{background:#fafafa}.code{font-size:18px;font-weight:bold;color:#1677ff}</style>' +
  `</head><body><main>${inner}</main></body></html>`;

/**
 * The simulator's page (SMS_SIMULATOR on, never in production): every text the simulator "sent", newest first, so a
 * developer or a test reads the code a phone would have received. It refreshes itself every five seconds.
 */
export function smsSimulatorRoutes(app: App) {
  app.get(service.SIMULATOR_PAGE, { config: { rule: PUBLIC }, schema: { hide: true } }, async (req, reply) => {
    const rows = await service.simulatedMessages(req.ctx);
    const body = rows
      .map((r) => {
        const params = JSON.parse(r.paramsJson) as Record<string, string> | string[];
        const values = Array.isArray(params)
          ? params.map((v, i) => `{${i + 1}} = ${escapeHtml(v)}`)
          : Object.entries(params).map(([k, v]) => `\${${escapeHtml(k)}} = ${escapeHtml(v)}`);
        const code = Array.isArray(params) ? params[0] : params.code;
        return (
          `<tr data-phone="${escapeHtml(r.phone)}"><td>${escapeHtml(beijing(r.createdAt))}</td><td>${escapeHtml(r.phone)}<br><span class="note">${escapeHtml(maskPhone(r.phone))}</span></td>` +
          `<td>${SMS_PROVIDERS[r.provider as keyof typeof SMS_PROVIDERS] ?? escapeHtml(r.provider)}<br><span class="note">【${escapeHtml(r.signName)}】模板 ${escapeHtml(r.template)}</span></td>` +
          `<td>${code && /^\d{6}$/.test(code) ? `<span class="code">${escapeHtml(code)}</span><br>` : ''}<span class="note">${values.join('<br>')}</span></td><td class="note">${escapeHtml(r.providerMessageId)}</td></tr>`
        );
      })
      .join('');
    reply.type('text/html; charset=utf-8');
    return page(
      '<h1>短信模拟器</h1><p class="note">开发与测试用：平台在这里“发送”的每条短信都列在下面（最新的在上），不会发到真实手机。号码以 1400000 开头的短信会被模拟为“号码错误”退回。</p>' +
        (rows.length
          ? `<table><thead><tr><th>时间</th><th>手机号</th><th>服务商 / 签名 / 模板</th><th>内容</th><th>回执编号</th></tr></thead><tbody>${body}</tbody></table>`
          : '<p>还没有短信。在登录页获取验证码，或在后台“消息服务”发送测试短信后，短信会出现在这里。</p>'),
    );
  });
}
