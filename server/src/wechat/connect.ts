/**
 * 微信扫码登录 for websites (issue 35), the WeChat open platform's QR connect: the browser goes to the platform's QR page
 * (`/connect/qrconnect`, scope snsapi_login), the person scans it with WeChat and confirms, and WeChat sends the browser
 * back with a code; the server trades the code for an access token, the openid and the unionid
 * (`/sns/oauth2/access_token`), and reads the nickname (`/sns/userinfo`). WeChat publishes no Node SDK for this: its
 * protocol is these HTTPS calls, made here as its documentation gives them.
 */

export interface WechatApp {
  appId: string;
  appSecret: string;
  /** Where the browser goes (https://open.weixin.qq.com), and where the server asks (https://api.weixin.qq.com). */
  connectBase: string;
  apiBase: string;
}

export const OPEN_PLATFORM = { connectBase: 'https://open.weixin.qq.com', apiBase: 'https://api.weixin.qq.com' };

export class WechatError extends Error {}

export function qrconnectUrl(app: WechatApp, redirectUri: string, state: string) {
  const q = new URLSearchParams({ appid: app.appId, redirect_uri: redirectUri, response_type: 'code', scope: 'snsapi_login', state });
  return `${app.connectBase}/connect/qrconnect?${q}#wechat_redirect`;
}

async function call<T>(url: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    throw new WechatError(`无法连接微信开放平台：${(err as Error).message}`);
  }
  const body = (await res.json().catch(() => ({}))) as T & { errcode?: number; errmsg?: string };
  if (!res.ok || (body.errcode !== undefined && body.errcode !== 0))
    throw new WechatError(`微信开放平台：${body.errcode ?? res.status} ${body.errmsg ?? ''}`.trim());
  return body;
}

/** The person WeChat names for a code: openid (this application's), unionid (across the open platform), nickname. */
export async function identityOf(app: WechatApp, code: string): Promise<{ openid: string; unionid: string; nickname: string | null }> {
  const q = new URLSearchParams({ appid: app.appId, secret: app.appSecret, code, grant_type: 'authorization_code' });
  const token = await call<{ access_token: string; openid: string; unionid?: string }>(`${app.apiBase}/sns/oauth2/access_token?${q}`);
  const info = await call<{ nickname?: string; unionid?: string }>(
    `${app.apiBase}/sns/userinfo?${new URLSearchParams({ access_token: token.access_token, openid: token.openid })}`,
  );
  const unionid = token.unionid ?? info.unionid;
  // Without a unionid (an application not bound to an open platform account) the openid is this application's id of them.
  return { openid: token.openid, unionid: unionid ?? `openid:${token.openid}`, nickname: info.nickname ?? null };
}
