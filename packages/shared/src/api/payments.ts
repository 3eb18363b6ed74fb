import { z } from 'zod';
import { ADMIN_MENU_CODES, type AdminMenuCode } from '../permissions.ts';
import { requiredText, text } from './fields.ts';

/** Payment methods (spec §3) and the back-office menu code that configures each. */
export const PAYMENT_METHOD_MENUS: Record<number, { code: AdminMenuCode; title: string }> = {
  1: { code: ADMIN_MENU_CODES.wechat, title: '微信支付' },
  2: { code: ADMIN_MENU_CODES.alipay, title: '支付宝' },
  4: { code: ADMIN_MENU_CODES.bank, title: '工商银行' },
  5: { code: ADMIN_MENU_CODES.ccbBank, title: '建设银行' },
  6: { code: ADMIN_MENU_CODES.custom, title: '其他支付' },
};
export const ONLINE_METHODS = [1, 2] as const;
export const OFFLINE_METHODS = [4, 5, 6] as const;

const url = (label: string) =>
  z
    .string({ error: `请输入${label}` })
    .trim()
    .regex(/^https?:\/\/\S+$/, `${label}须为http(s)地址`)
    .max(300);
/** A secret field: empty or absent keeps the stored value, so the browser never needs to hold it. */
const secret = (max: number) => z.preprocess((v) => (typeof v === 'string' ? v.trim() || undefined : v), z.string().max(max).optional());
const pem = (label: string) => secret(8000).refine((v) => v === undefined || /-----BEGIN [A-Z ]*KEY-----/.test(v), `${label}须为PEM格式的密钥`);

export const alipaySettingsBody = z.strictObject({
  enable: z.boolean(),
  appId: requiredText(32, '应用ID（APPID）'),
  sellerId: text(32, '商户PID'),
  gatewayUrl: url('网关地址').default('https://openapi.alipay.com/gateway.do'),
  appPrivateKey: pem('应用私钥'),
  alipayPublicKey: requiredText(8000, '支付宝公钥').refine((v) => /-----BEGIN PUBLIC KEY-----/.test(v), '支付宝公钥须为PEM格式'),
});
export type AlipaySettingsBody = z.infer<typeof alipaySettingsBody>;

export const wechatSettingsBody = z.strictObject({
  enable: z.boolean(),
  appId: requiredText(32, '公众号或应用AppID'),
  mchId: requiredText(32, '商户号'),
  serialNo: requiredText(64, '商户证书序列号'),
  apiBase: url('接口地址').default('https://api.mch.weixin.qq.com'),
  privateKey: pem('商户API私钥'),
  apiV3Key: secret(32).refine((v) => v === undefined || v.length === 32, 'APIv3密钥须为32个字符'),
  platformSerial: requiredText(64, '平台证书序列号'),
  platformPublicKey: requiredText(8000, '平台公钥').refine((v) => /-----BEGIN PUBLIC KEY-----/.test(v), '平台公钥须为PEM格式'),
});
export type WechatSettingsBody = z.infer<typeof wechatSettingsBody>;

const account = z.strictObject({
  name: requiredText(50, '名称'),
  accountName: requiredText(100, '户名'),
  accountNo: requiredText(50, '账号'),
  bankName: text(100, '开户行'),
  instructions: text(1000, '付款说明'),
});
export type OfflineAccount = z.infer<typeof account>;

/** ICBC, CCB and custom methods are offline transfers: the accounts and the instructions the payer sees. */
export const offlineSettingsBody = z.strictObject({
  enable: z.boolean(),
  accounts: z.array(account).min(1, '请至少填写一个收款账户').max(10, '最多10个收款账户'),
});
export type OfflineSettingsBody = z.infer<typeof offlineSettingsBody>;

/** What the back office reads back: secrets only as "set or not" with their last characters. */
export const paymentConfigViewSchema = z.object({
  method: z.number().int(),
  enable: z.boolean(),
  /** The method's stored settings but its secrets: free-form, each method has its own (the settings bodies above). */
  settings: z.record(z.string(), z.unknown()),
  secrets: z.record(z.string(), z.string().nullable()),
  updatedAt: z.string().nullable(),
  simulator: z.boolean(),
});
export type PaymentConfigView = z.infer<typeof paymentConfigViewSchema>;

/** An offline method's receiving account as the payer reads it. */
export const offlineAccountSchema = z.object({
  name: z.string(),
  accountName: z.string(),
  accountNo: z.string(),
  bankName: z.string().nullish(),
  instructions: z.string().nullish(),
});

/** What a payer sees on the payment page. */
export const paymentMethodOptionSchema = z.object({
  method: z.number().int(),
  name: z.string(),
  online: z.boolean(),
  accounts: z.array(offlineAccountSchema),
});
export type PaymentMethodOption = z.infer<typeof paymentMethodOptionSchema>;

export const payBody = z.strictObject({ method: z.union([z.literal(1), z.literal(2)], { error: '请选择微信支付或支付宝' }) });

export const payResultSchema = z.object({
  method: z.number().int(),
  /** What the payer scans: the gateway's QR content, and the same as an image. */
  codeUrl: z.string(),
  qrImage: z.string(),
});
export type PayResult = z.infer<typeof payResultSchema>;

/** What WeChat Pay's notification is answered with (its protocol, not the envelope). */
export const wechatNoticeReplySchema = z.object({ code: z.enum(['SUCCESS', 'FAIL']), message: z.string() });
