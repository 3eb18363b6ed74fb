import DysmsapiModule, { SendSmsRequest } from '@alicloud/dysmsapi20170525';
import { $OpenApiUtil } from '@alicloud/openapi-core';
import { SmsError, aliyunNumber, type Endpoint, type SmsMessage, type SmsSettings } from './provider.ts';

// A CommonJS package: imported from ESM, its default is the whole `exports`, whose own `default` is the client.
const Dysmsapi = ((DysmsapiModule as unknown as { default?: typeof DysmsapiModule }).default ?? DysmsapiModule) as typeof DysmsapiModule;

/** Aliyun's codes that asking again can cure (its own throttling, or its service busy); any other refusal is final. */
const PASSING = new Set(['isv.BUSINESS_LIMIT_CONTROL', 'Throttling.User', 'ServiceUnavailable', 'InternalError']);
/** Codes that refuse the recipient rather than the request: the message bounced. */
const RECIPIENT = new Set(['isv.MOBILE_NUMBER_ILLEGAL', 'isv.BLACK_KEY_CONTROL_LIMIT', 'isv.MOBILE_COUNT_OVER_LIMIT']);

/** An Aliyun SDK client's settings: the key, and the product's host unless the simulator's `endpoint` is given. */
export const aliyunConfig = (key: { accessKeyId: string; accessKeySecret: string }, host: string, endpoint?: Endpoint) =>
  new $OpenApiUtil.Config({
    accessKeyId: key.accessKeyId,
    accessKeySecret: key.accessKeySecret,
    endpoint: endpoint?.host ?? host,
    protocol: endpoint?.protocol ?? 'https',
    readTimeout: 10_000,
    connectTimeout: 5_000,
  });

/** Sends one text through Aliyun SMS (`SendSms`, API 2017-05-25) and answers its BizId. */
export async function sendAliyun(s: SmsSettings, m: SmsMessage, endpoint?: Endpoint): Promise<{ providerId: string }> {
  const client = new Dysmsapi(aliyunConfig(s, 'dysmsapi.aliyuncs.com', endpoint));
  let body: { code?: string; message?: string; bizId?: string } | undefined;
  try {
    const res = await client.sendSms(
      new SendSmsRequest({
        phoneNumbers: aliyunNumber(m.phone),
        signName: s.signName,
        templateCode: s.templates[m.purpose],
        templateParam: JSON.stringify(m.params),
      }),
    );
    body = res.body;
  } catch (err) {
    // The SDK throws for an HTTP error (a bad signature, a key it does not know): its code says which.
    const e = err as { code?: string; message?: string; statusCode?: number };
    const code = e.code ?? '';
    const passing = PASSING.has(code) || !e.statusCode || e.statusCode >= 500;
    throw new SmsError(passing ? 'retry' : 'failed', `阿里云短信：${code ? `${code} ` : ''}${e.message ?? '请求失败'}`.slice(0, 500));
  }
  if (body?.code === 'OK' && body.bizId) return { providerId: body.bizId };
  const code = body?.code ?? '';
  const outcome = PASSING.has(code) ? 'retry' : RECIPIENT.has(code) ? 'bounced' : 'failed';
  throw new SmsError(outcome, `阿里云短信：${code} ${body?.message ?? ''}`.trim().slice(0, 500));
}
