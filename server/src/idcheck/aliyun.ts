import CloudauthModule, { Id2MetaVerifyRequest } from '@alicloud/cloudauth20190307';
import { aliyunConfig } from '../sms/aliyun.ts';
import type { Endpoint } from '../sms/provider.ts';
import { IdCheckError, type IdCheckOutcome, type IdCheckResult, type IdCheckSettings } from './provider.ts';

// A CommonJS package: imported from ESM, its default is the whole `exports`, whose own `default` is the client.
const Cloudauth = ((CloudauthModule as unknown as { default?: typeof CloudauthModule }).default ?? CloudauthModule) as typeof CloudauthModule;

/** Id2MetaVerify's BizCode: 1 the name and number agree, 2 they do not, 3 no record of the number. */
const OUTCOMES: Record<string, IdCheckOutcome> = { '1': 'match', '2': 'mismatch', '3': 'no_record' };

/** Asks Aliyun 实人认证 (API 2019-03-07, `Id2MetaVerify`, 身份证二要素核验) whether `name` and `number` agree. */
export async function checkAliyun(s: IdCheckSettings, name: string, number: string, endpoint?: Endpoint): Promise<IdCheckResult> {
  const client = new Cloudauth(aliyunConfig(s, 'cloudauth.aliyuncs.com', endpoint));
  let body: { code?: string; message?: string; requestId?: string; resultObject?: { bizCode?: string } } | undefined;
  try {
    body = (await client.id2MetaVerify(new Id2MetaVerifyRequest({ paramType: 'normal', identifyNum: number, userName: name }))).body;
  } catch (err) {
    const e = err as { code?: string; message?: string };
    throw new IdCheckError(`阿里云实人认证：${e.code ? `${e.code} ` : ''}${e.message ?? '请求失败'}`.slice(0, 500));
  }
  const outcome = body?.code === '200' ? OUTCOMES[body.resultObject?.bizCode ?? ''] : undefined;
  if (!outcome) throw new IdCheckError(`阿里云实人认证：${body?.code ?? ''} ${body?.message ?? '未返回核验结果'}`.trim().slice(0, 500));
  return { outcome, providerRef: body?.requestId ?? '' };
}
