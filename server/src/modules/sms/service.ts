import { SMS_PROVIDERS, type SmsConfigBody, type SmsConfigView } from '@contest/shared';
import type { Ctx, Deps } from '../../context.ts';
import { badRequest } from '../../http/errors.ts';
import { sendAliyun } from '../../sms/aliyun.ts';
import { SmsError, TEMPLATE_PARAMS, type SmsMessage, type SmsSettings } from '../../sms/provider.ts';
import type { SimulatedSms } from '../../sms/simulator.ts';
import { sendTencent } from '../../sms/tencent.ts';
import { writeAudit } from '../audit-log/index.ts';
import * as repo from './repo.ts';

/** Where the simulator's messages are shown (a page of the server's own, like the payment simulator's checkout). */
export const SIMULATOR_PAGE = '/simulator/sms';
export const SMS_OFF = '平台未开通短信服务，请联系平台管理员';

type Stored = Omit<SmsSettings, 'accessKeySecret'> & { accessKeySecret?: string };

async function loadStored(db: Deps['db']) {
  const row = await repo.findSettings(db);
  return row ? { enable: row.enable === 1, settings: JSON.parse(row.settingsJson) as Stored, updatedAt: row.updatedAt } : null;
}

/** The enabled provider's settings with the secret unsealed, or null when the platform sends no text messages. */
export async function activeSettings(deps: Pick<Deps, 'db' | 'cipher'>): Promise<SmsSettings | null> {
  const stored = await loadStored(deps.db);
  if (!stored?.enable || !stored.settings.accessKeySecret) return null;
  return { ...stored.settings, accessKeySecret: deps.cipher.decrypt(stored.settings.accessKeySecret) };
}

/** Whether the platform sends text messages (the login page offers codes only then). */
export const smsEnabled = async (deps: Pick<Deps, 'db' | 'cipher'>) => (await activeSettings(deps)) !== null;

/**
 * Sends one text now through the enabled provider, or through the simulator outside production when SMS_SIMULATOR is
 * on (every text goes there then, so development never reaches a real phone). Throws SmsError with the outcome.
 */
export async function sendNow(deps: Deps, message: SmsMessage): Promise<{ providerId: string }> {
  const settings = await activeSettings(deps);
  if (!settings) throw new SmsError('failed', '未开通短信服务，短信未发送');
  if (!settings.templates[message.purpose]) throw new SmsError('failed', `未配置“${message.purpose}”用途的短信模板，短信未发送`);
  const endpoint = deps.smsSimulator ? await deps.smsSimulator.endpoint() : undefined;
  return settings.provider === 'tencent' ? sendTencent(settings, message, endpoint) : sendAliyun(settings, message, endpoint);
}

export async function readConfig(ctx: Ctx): Promise<SmsConfigView> {
  const stored = await loadStored(ctx.db);
  const s = stored?.settings;
  const sim = ctx.smsSimulator;
  return {
    provider: s?.provider ?? 'aliyun',
    enable: stored?.enable ?? false,
    accessKeyId: s?.accessKeyId ?? '',
    accessKeySecret: s?.accessKeySecret ? `已设置（…${ctx.cipher.decrypt(s.accessKeySecret).slice(-4)}）` : null,
    signName: s?.signName ?? '',
    sdkAppId: s?.sdkAppId ?? '',
    templates: { code: s?.templates.code ?? '', notice: s?.templates.notice ?? '', reminder: s?.templates.reminder ?? '' },
    templateParams: { code: [...TEMPLATE_PARAMS.code], notice: [...TEMPLATE_PARAMS.notice], reminder: [...TEMPLATE_PARAMS.reminder] },
    updatedAt: stored?.updatedAt ?? null,
    simulator: sim ? { ...sim.keys, page: SIMULATOR_PAGE } : null,
  };
}

/** Saves the provider's settings; an enabled provider must have its key, secret, sign name and code template. */
export async function saveConfig(ctx: Ctx, body: SmsConfigBody) {
  const before = await loadStored(ctx.db);
  const secret = body.accessKeySecret
    ? ctx.cipher.encrypt(body.accessKeySecret)
    : before?.settings.provider === body.provider
      ? before.settings.accessKeySecret
      : undefined;
  if (body.enable) {
    const missing: [string, string][] = [];
    if (!body.accessKeyId) missing.push(['accessKeyId', body.provider === 'tencent' ? 'SecretId' : 'AccessKey ID']);
    if (!secret) missing.push(['accessKeySecret', body.provider === 'tencent' ? 'SecretKey' : 'AccessKey Secret']);
    if (!body.signName) missing.push(['signName', '短信签名']);
    if (body.provider === 'tencent' && !body.sdkAppId) missing.push(['sdkAppId', 'SdkAppId']);
    if (!body.templates.code) missing.push(['templates.code', '验证码模板ID']);
    if (missing.length)
      throw badRequest(
        `启用${SMS_PROVIDERS[body.provider]}前请填写${missing.map(([, l]) => l).join('、')}`,
        Object.fromEntries(missing.map(([f, l]) => [f, `请填写${l}`])),
      );
  }
  const settings: Stored = {
    provider: body.provider,
    accessKeyId: body.accessKeyId,
    signName: body.signName,
    ...(body.provider === 'tencent' && { sdkAppId: body.sdkAppId ?? '' }),
    templates: body.templates,
    ...(secret && { accessKeySecret: secret }),
  };
  const now = ctx.clock.now().toISOString();
  await repo.saveSettings(ctx.db, { provider: body.provider, enable: body.enable ? 1 : 0, settingsJson: JSON.stringify(settings), updatedAt: now });
  const shown = (x: Stored | undefined, enable: boolean | undefined) =>
    x && { enable, provider: x.provider, accessKeyId: x.accessKeyId, signName: x.signName, templates: x.templates };
  await writeAudit(ctx, {
    action: 'sms.config',
    entity: 'smsSettings',
    entityId: 1,
    before: shown(before?.settings, before?.enable),
    after: shown(settings, body.enable),
  });
}

/**
 * A test text to `phone` with the saved settings, sent at once (not through the outbox: the administrator checking a
 * configuration wants the provider's answer now). It uses the code template with a sample code.
 */
export async function testSend(ctx: Ctx, phone: string) {
  const hit = await ctx.limiter.hit(`sms:test:${ctx.actor?.userId}`, 10, 3600_000);
  if (!hit.allowed) throw badRequest('测试短信发送过于频繁，请稍后再试');
  try {
    const { providerId } = await sendNow(ctx, { phone, purpose: 'code', params: { code: '123456', minutes: '10' } });
    await writeAudit(ctx, { action: 'sms.test', entity: 'smsSettings', entityId: 1 });
    return { providerMessageId: providerId };
  } catch (err) {
    if (err instanceof SmsError) throw badRequest(`测试短信未发出：${err.reason}`);
    throw err;
  }
}

/** What the simulator received, kept for its page. */
export const recordSimulated = (deps: Pick<Deps, 'db' | 'clock'>) => async (m: SimulatedSms) =>
  repo.insertSimulated(deps.db, {
    provider: m.provider,
    phone: m.phone,
    signName: m.signName,
    template: m.template,
    paramsJson: JSON.stringify(m.params),
    providerMessageId: m.providerMessageId,
    createdAt: deps.clock.now().toISOString(),
  });

export const simulatedMessages = (ctx: Ctx) => repo.latestSimulated(ctx.db, 100);
