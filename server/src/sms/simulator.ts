import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Endpoint, SmsProviderName } from './provider.ts';

/**
 * A development stand-in for Aliyun SMS and Tencent Cloud SMS (SMS_SIMULATOR=1, refused in production). It listens on
 * a port of its own on 127.0.0.1 and answers the providers' real `SendSms` APIs: it checks each request's signature
 * (Aliyun's ACS3-HMAC-SHA256, Tencent's TC3-HMAC-SHA256) against keys it made, refuses what the provider would refuse
 * with the provider's own codes, and hands each message it accepts to `record` (the simulator's page lists them). The
 * platform's adapters talk to it through the providers' own SDKs, so the code that runs in production is the code
 * tested. A number starting 1400000 is one the "operator" refuses: the message bounces, as a real one would.
 */

export interface SimulatorKeys {
  aliyun: { accessKeyId: string; accessKeySecret: string };
  tencent: { secretId: string; secretKey: string; sdkAppId: string };
}

export interface SimulatedSms {
  provider: SmsProviderName;
  phone: string;
  signName: string;
  template: string;
  params: Record<string, string> | string[];
  providerMessageId: string;
}

export interface SmsSimulator {
  keys: SimulatorKeys;
  /** Where the adapters send: the simulator's own address, started on first use. */
  endpoint(): Promise<Endpoint>;
  close(): Promise<void>;
}

/** Keys are made once and kept under DATA_DIR, so settings saved with them keep working after a restart. */
export function simulatorKeys(dataDir: string): SimulatorKeys {
  const file = path.join(dataDir, 'sms-simulator.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as SimulatorKeys;
  const keys: SimulatorKeys = {
    aliyun: { accessKeyId: `LTAI${randomBytes(10).toString('hex')}`, accessKeySecret: randomBytes(15).toString('base64url') },
    tencent: { secretId: `AKID${randomBytes(16).toString('hex')}`, secretKey: randomBytes(16).toString('hex'), sdkAppId: '1400000001' },
  };
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process of the same platform made them first: theirs are the keys.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return JSON.parse(fs.readFileSync(file, 'utf8')) as SimulatorKeys;
    throw err;
  }
  return keys;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
/** Aliyun's percent-encoding of canonical query values (RFC 3986). */
const acsEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const REFUSED_PREFIX = '1400000';
/** A request older (or newer) than this is refused, as the providers refuse replays. */
const CLOCK_SKEW_MS = 15 * 60_000;

export type Reply = { status: number; body: unknown };

export function header(req: http.IncomingMessage, name: string) {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : (v ?? '');
}

/**
 * Checks an Aliyun RPC request signed with the V3 signature (ACS3-HMAC-SHA256, what @alicloud/openapi-core sends by
 * default) against the simulator's key: the refusal Aliyun would answer, or null when the request is the key holder's.
 * The ID-check simulator (idcheck/simulator.ts) answers Aliyun's 实人认证 API behind the same check.
 */
export function checkAcs3(keys: SimulatorKeys['aliyun'], req: http.IncomingMessage, url: URL, body: Buffer, requestId: string): Reply | null {
  const fail = (status: number, code: string, message: string): Reply => ({ status, body: { RequestId: requestId, Code: code, Message: message } });
  const auth = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]+)$/.exec(header(req, 'authorization'));
  if (!auth) return fail(400, 'MissingAuthorization', 'Authorization is mandatory for this action.');
  const [, keyId, signedList, signature] = auth as unknown as [string, string, string, string];
  if (keyId !== keys.accessKeyId) return fail(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
  const signed = signedList.split(';');
  for (const h of ['host', 'x-acs-action', 'x-acs-date', 'x-acs-signature-nonce', 'x-acs-content-sha256'])
    if (!signed.includes(h)) return fail(400, 'IncompleteSignature', `The header ${h} is not signed.`);
  if (header(req, 'x-acs-content-sha256') !== sha256(body)) return fail(400, 'IncompleteSignature', 'The request body does not match x-acs-content-sha256.');
  const date = Date.parse(header(req, 'x-acs-date'));
  if (!Number.isFinite(date) || Math.abs(Date.now() - date) > CLOCK_SKEW_MS)
    return fail(400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.');
  const query = [...url.searchParams.keys()]
    .filter((k, i, all) => all.indexOf(k) === i)
    .sort()
    .map((k) => `${k}=${acsEncode(url.searchParams.get(k) ?? '')}`)
    .join('&');
  const headers = signed.map((h) => `${h}:${header(req, h).trim()}\n`).join('');
  const canonical = ['POST', url.pathname, query, headers, signed.join(';'), header(req, 'x-acs-content-sha256')].join('\n');
  const expected = hmac(keys.accessKeySecret, `ACS3-HMAC-SHA256\n${sha256(canonical)}`).toString('hex');
  if (!same(expected, signature)) return fail(400, 'SignatureDoesNotMatch', 'Specified signature does not match our calculation.');
  return null;
}

/** A parameter of an Aliyun RPC request: in the query or the form body. */
export function acsParams(url: URL, body: Buffer) {
  const form = new URLSearchParams(body.toString('utf8'));
  return (k: string) => url.searchParams.get(k) ?? form.get(k) ?? '';
}

/** Aliyun SMS's SendSms. */
function aliyun(keys: SimulatorKeys['aliyun'], req: http.IncomingMessage, url: URL, body: Buffer, record: (m: SimulatedSms) => Promise<void>) {
  const requestId = randomUUID().toUpperCase();
  const fail = (status: number, code: string, message: string): Reply => ({ status, body: { RequestId: requestId, Code: code, Message: message } });
  const refused = checkAcs3(keys, req, url, body, requestId);
  if (refused) return refused;
  if (header(req, 'x-acs-action') !== 'SendSms') return fail(400, 'InvalidAction.NotFound', 'Specified api is not found, please check your url and method.');

  const param = acsParams(url, body);
  const phone = param('PhoneNumbers');
  const signName = param('SignName');
  const template = param('TemplateCode');
  let params: Record<string, string>;
  try {
    params = JSON.parse(param('TemplateParam') || '{}') as Record<string, string>;
  } catch {
    return fail(200, 'isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值');
  }
  if (!signName) return fail(200, 'isv.SMS_SIGNATURE_ILLEGAL', '该账号下找不到对应签名');
  if (!/^SMS_\d+$/.test(template)) return fail(200, 'isv.SMS_TEMPLATE_ILLEGAL', '该账号下找不到对应模板');
  if (!/^(1[3-9]\d{9}|852[5689]\d{7}|8869\d{8})$/.test(phone) || phone.startsWith(REFUSED_PREFIX))
    return fail(200, 'isv.MOBILE_NUMBER_ILLEGAL', '手机号码格式错误');
  const bizId = `${Date.now()}${randomBytes(3).readUIntBE(0, 3)}^0`;
  return record({ provider: 'aliyun', phone, signName, template, params, providerMessageId: bizId }).then(
    (): Reply => ({ status: 200, body: { RequestId: requestId, Code: 'OK', Message: 'OK', BizId: bizId } }),
  );
}

/** Tencent Cloud API 3.0 with the TC3-HMAC-SHA256 signature. */
function tencent(keys: SimulatorKeys['tencent'], req: http.IncomingMessage, url: URL, body: Buffer, record: (m: SimulatedSms) => Promise<void>) {
  const requestId = randomUUID();
  const fail = (code: string, message: string): Reply => ({
    status: 200,
    body: { Response: { Error: { Code: code, Message: message }, RequestId: requestId } },
  });
  const auth = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]+)$/.exec(
    header(req, 'authorization'),
  );
  if (!auth) return fail('AuthFailure.SignatureFailure', 'The provided credentials could not be validated.');
  const [, secretId, date, service, signedList, signature] = auth as unknown as [string, string, string, string, string, string];
  if (secretId !== keys.secretId) return fail('AuthFailure.SecretIdNotFound', 'The SecretId is not found.');
  const timestamp = Number(header(req, 'x-tc-timestamp'));
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() - timestamp * 1000) > CLOCK_SKEW_MS)
    return fail('AuthFailure.SignatureExpire', 'Signature expired. Timestamp is out of range.');
  if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date)
    return fail('AuthFailure.SignatureFailure', 'The credential date does not match the timestamp.');
  const signed = signedList.split(';');
  if (!signed.includes('host') || !signed.includes('content-type')) return fail('AuthFailure.SignatureFailure', 'Host and Content-Type must be signed.');
  const values: Record<string, string> = { host: header(req, 'host').replace(/:\d+$/, ''), 'content-type': header(req, 'content-type') };
  const headers = signed.map((h) => `${h}:${(values[h] ?? header(req, h)).trim()}\n`).join('');
  const canonical = ['POST', url.pathname, url.search.slice(1), headers, signed.join(';'), sha256(body)].join('\n');
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/${service}/tc3_request\n${sha256(canonical)}`;
  const kSigning = hmac(hmac(hmac(`TC3${keys.secretKey}`, date), service), 'tc3_request');
  if (!same(hmac(kSigning, toSign).toString('hex'), signature)) return fail('AuthFailure.SignatureFailure', 'The provided credentials could not be validated.');
  if (header(req, 'x-tc-action') !== 'SendSms') return fail('InvalidAction', 'The action is not found.');

  let p: { PhoneNumberSet?: string[]; SmsSdkAppId?: string; SignName?: string; TemplateId?: string; TemplateParamSet?: string[] };
  try {
    p = JSON.parse(body.toString('utf8')) as typeof p;
  } catch {
    return fail('InvalidParameter', 'The request body is not JSON.');
  }
  if (p.SmsSdkAppId !== keys.sdkAppId) return fail('FailedOperation.InsufficientBalanceInSmsPackage', 'SmsSdkAppId 不存在或不属于该账号');
  if (!p.SignName) return fail('FailedOperation.SignatureIncorrectOrUnapproved', '签名未审批或格式错误');
  if (!/^\d+$/.test(p.TemplateId ?? '')) return fail('FailedOperation.TemplateIncorrectOrUnapproved', '模板未审批或不存在');
  const phone = p.PhoneNumberSet?.[0] ?? '';
  const serialNo = `${randomBytes(4).readUInt32BE(0)}:${Date.now()}`;
  const national = phone.replace(/^\+86/, '');
  const status =
    !/^\+(861[3-9]\d{9}|852[5689]\d{7}|8869\d{8})$/.test(phone) || national.startsWith(REFUSED_PREFIX)
      ? {
          SerialNo: '',
          PhoneNumber: phone,
          Fee: 0,
          SessionContext: '',
          Code: 'InvalidParameterValue.IncorrectPhoneNumber',
          Message: '手机号格式错误',
          IsoCode: 'CN',
        }
      : { SerialNo: serialNo, PhoneNumber: phone, Fee: 1, SessionContext: '', Code: 'Ok', Message: 'send success', IsoCode: 'CN' };
  const done = (): Reply => ({ status: 200, body: { Response: { SendStatusSet: [status], RequestId: requestId } } });
  if (status.Code !== 'Ok') return done();
  return record({
    provider: 'tencent',
    phone,
    signName: p.SignName,
    template: p.TemplateId!,
    params: p.TemplateParamSet ?? [],
    providerMessageId: serialNo,
  }).then(done);
}

/**
 * The simulators' HTTP server: POST requests of at most 64 kB on a port of its own on 127.0.0.1, started on first use,
 * each answered by `handle` as JSON.
 */
export function simulatorServer(handle: (req: http.IncomingMessage, url: URL, body: Buffer) => Reply | Promise<Reply>) {
  let listening: Promise<Endpoint> | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 64 * 1024) req.destroy();
      else chunks.push(c);
    });
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://simulator');
      let reply: Reply;
      try {
        reply = req.method !== 'POST' ? { status: 405, body: { message: 'POST only' } } : await handle(req, url, Buffer.concat(chunks));
      } catch (err) {
        reply = { status: 500, body: { Code: 'InternalError', Message: (err as Error).message } };
      }
      res.writeHead(reply.status, { 'content-type': 'application/json;charset=utf-8' }).end(JSON.stringify(reply.body));
    });
  });
  return {
    endpoint(): Promise<Endpoint> {
      listening ??= new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve({ host: `127.0.0.1:${(server.address() as AddressInfo).port}`, protocol: 'http' }));
      });
      return listening;
    },
    async close() {
      if (!listening) return;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}

export function smsSimulator(dataDir: string, record: (m: SimulatedSms) => Promise<void>): SmsSimulator {
  const keys = simulatorKeys(dataDir);
  const server = simulatorServer((req, url, body) => {
    if (req.headers['x-acs-action']) return aliyun(keys.aliyun, req, url, body, record);
    if (req.headers['x-tc-action']) return tencent(keys.tencent, req, url, body, record);
    return { status: 400, body: { message: 'neither an Aliyun nor a Tencent Cloud request' } };
  });
  return { keys, ...server };
}
