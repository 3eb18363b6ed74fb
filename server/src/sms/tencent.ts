import * as tencentcloud from 'tencentcloud-sdk-nodejs-sms';
import { SmsError, e164, orderedParams, type Endpoint, type SmsMessage, type SmsSettings } from './provider.ts';

const Client = tencentcloud.sms.v20210111.Client;

/** Tencent's codes that asking again can cure; any other refusal is final. */
const passing = (code: string) => code.startsWith('InternalError') || code === 'RequestLimitExceeded' || code === 'FailedOperation.ServiceBusy';
/** Codes that refuse the recipient rather than the request. */
const recipient = (code: string) => code.startsWith('InvalidParameterValue.IncorrectPhoneNumber') || code.startsWith('LimitExceeded.Phone');

/** Sends one text through Tencent Cloud SMS (`SendSms`, API 2021-01-11) and answers its SerialNo. */
export async function sendTencent(s: SmsSettings, m: SmsMessage, endpoint?: Endpoint): Promise<{ providerId: string }> {
  const client = new Client({
    credential: { secretId: s.accessKeyId, secretKey: s.accessKeySecret },
    region: 'ap-guangzhou',
    profile: {
      httpProfile: {
        endpoint: endpoint?.host ?? 'sms.tencentcloudapi.com',
        protocol: `${endpoint?.protocol ?? 'https'}://`,
        reqTimeout: 10,
      },
    },
  });
  let status: { Code?: string; Message?: string; SerialNo?: string } | undefined;
  try {
    const res = await client.SendSms({
      PhoneNumberSet: [e164(m.phone)],
      SmsSdkAppId: s.sdkAppId ?? '',
      SignName: s.signName,
      TemplateId: s.templates[m.purpose],
      TemplateParamSet: orderedParams(m),
    });
    status = res.SendStatusSet?.[0];
  } catch (err) {
    // The SDK throws the API's own error (a bad signature, a key it does not know) or a network failure (no code).
    const e = err as { code?: string; message?: string };
    const code = e.code ?? '';
    throw new SmsError(!code || passing(code) ? 'retry' : 'failed', `腾讯云短信：${code ? `${code} ` : ''}${e.message ?? '请求失败'}`.slice(0, 500));
  }
  if (status?.Code === 'Ok' && status.SerialNo) return { providerId: status.SerialNo };
  const code = status?.Code ?? '';
  throw new SmsError(passing(code) ? 'retry' : recipient(code) ? 'bounced' : 'failed', `腾讯云短信：${code} ${status?.Message ?? ''}`.trim().slice(0, 500));
}
