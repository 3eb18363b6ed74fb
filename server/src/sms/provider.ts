/**
 * Text messages through the provider Chinese organisers already pay for (issue 35): Aliyun SMS or Tencent Cloud SMS,
 * each through its own SDK (aliyun.ts, tencent.ts). A message is a template registered at the provider, under the
 * platform's sign name (签名), with its parameters: the platform never sends free text. Outside production every
 * message goes to the simulator (simulator.ts), which speaks both providers' protocols, signatures included.
 */

export type SmsProviderName = 'aliyun' | 'tencent';
/** What a text is for; each has its own template at the provider. */
export type SmsTemplatePurpose = 'code' | 'notice' | 'reminder';

export interface SmsSettings {
  provider: SmsProviderName;
  /** Aliyun AccessKey ID, or Tencent SecretId. */
  accessKeyId: string;
  /** Aliyun AccessKey secret, or Tencent SecretKey. */
  accessKeySecret: string;
  signName: string;
  /** Tencent only: the SMS application (SmsSdkAppId). */
  sdkAppId?: string;
  /** Template ids (Aliyun `SMS_123…`, Tencent a number), per purpose. */
  templates: Record<SmsTemplatePurpose, string>;
}

/**
 * The parameters of each purpose's template, in the order Tencent's numbered {1}, {2}… take them; Aliyun's named
 * ${code}, ${title}… take them by name. The operator's page lists them, so templates are registered to match.
 */
export const TEMPLATE_PARAMS: Record<SmsTemplatePurpose, readonly string[]> = {
  code: ['code', 'minutes'],
  notice: ['title'],
  reminder: ['competition', 'deadline'],
};

export interface SmsMessage {
  /** The phone number as a participant typed it: mainland 11 digits, or with +86, +852, +886. */
  phone: string;
  purpose: SmsTemplatePurpose;
  params: Record<string, string>;
}

/** How a refused send ends: `failed` for good (the provider's reason), `retry` when asking again may succeed. */
export class SmsError extends Error {
  constructor(
    readonly outcome: 'failed' | 'bounced' | 'retry',
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Where the SDK sends its request: the provider's own address unless the simulator's is given (`host:port`). */
export interface Endpoint {
  host: string;
  protocol: 'http' | 'https';
}

/** Mainland numbers in E.164 (+86…); Hong Kong and Taiwan numbers keep the prefix they were typed with. */
export function e164(phone: string) {
  const p = phone.trim();
  return p.startsWith('+') ? p : `+86${p}`;
}

/** Aliyun's PhoneNumbers: mainland numbers bare, others with their country code and no plus. */
export const aliyunNumber = (phone: string) => {
  const p = e164(phone);
  return p.startsWith('+86') ? p.slice(3) : p.slice(1);
};

export const orderedParams = (m: SmsMessage) => TEMPLATE_PARAMS[m.purpose].map((k) => m.params[k] ?? '');
