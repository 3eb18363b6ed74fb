import type {
  AltchaChallenge,
  AuthConfig,
  AuthSession as SessionRow,
  ChangePasswordBody,
  LoginBody,
  RegisterBody,
  SmsLoginReply,
  TokenReply,
  UserInfo,
} from '@contest/shared';
import { http } from '../common/http.ts';

/** A signed-in session of the caller, as the account page lists them. */
export type { AuthSession as SessionRow } from '@contest/shared';

/** Signing in and out, registration, password and sessions (spec §7 `/api/auth/*`). */
export const authUrls = {
  /** Single sign-on: a full page load, back to `returnTo` (a path on this site) afterwards. */
  oidcLogin: (returnTo: string) => `/api/auth/oidc/login?returnTo=${encodeURIComponent(returnTo)}`,
  /** 微信扫码登录: a full page load to WeChat's QR page (or the simulator's), back to `returnTo` afterwards. */
  wechatLogin: (returnTo: string) => `/api/auth/wechat/login?returnTo=${encodeURIComponent(returnTo)}`,
  /** Binds a WeChat to the signed-in account: back to 账号设置 afterwards. */
  wechatBind: '/api/auth/wechat/bind',
};

export const authKeys = {
  /** What the login page offers (single sign-on); fixed while the page lives. */
  config: ['authConfig'] as const,
  sessions: ['sessions'] as const,
};

export const authApi = {
  /** Silent: without it the login form still works. */
  config: () => http.get<AuthConfig>('/api/auth/config', undefined, { silent: true }),
  login: (body: LoginBody) => http.post<UserInfo>('/api/auth/login', body),
  register: (body: RegisterBody) => http.post<void>('/api/auth/register', body),
  /** A bearer token for the desktop client, from the session just signed in (spec §7 `/login?state=app`). */
  desktopToken: () => http.post<TokenReply>('/api/auth/token'),
  /** Silent: leaving ends the local session whatever the server says. */
  logout: () => http.post<void>('/api/auth/logout', undefined, { silent: true }),
  sessions: () => http.get<SessionRow[]>('/api/auth/sessions'),
  changePassword: (body: ChangePasswordBody) => http.put<void>('/api/auth/password', body),
  revokeOthers: () => http.post<{ revoked: number }>('/api/auth/sessions/revokeOthers'),
  /** A proof-of-work challenge, solved before asking for an SMS code (issue 35). */
  altcha: () => http.get<AltchaChallenge>('/api/auth/altcha'),
  /** A code by SMS: for 短信验证码登录, or for 忘记密码 (the answer's message is the same whether or not the phone has an account). */
  smsCode: (phone: string, purpose: 'login' | 'reset', altcha: string) => http.post<null>('/api/auth/sms/code', { phone, purpose, altcha }),
  /** Signs in by code; an unknown phone gets an account (`created`). */
  smsLogin: (phone: string, code: string) => http.post<SmsLoginReply>('/api/auth/sms/login', { phone, code }),
};
