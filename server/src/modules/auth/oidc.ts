import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ROLE_CODES, usernameKey } from '@contest/shared';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Ctx } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, forbidden } from '../../http/errors.ts';
import * as users from '../users/index.ts';
import * as repo from './repo.ts';
import { ACCOUNT_DISABLED } from './service.ts';

/** How long a started sign-in may take before its state is no longer accepted. */
export const STATE_TTL_MS = 10 * 60_000;

export const SSO_OTHER_BROWSER = '统一身份认证须在发起登录的同一浏览器中完成，请重新登录';

/**
 * The state sent to the provider is the hash of a secret kept in the starting browser's cookie, so only that browser
 * can complete the sign-in: a callback address opened anywhere else (login CSRF, a link someone was sent) is refused
 * before its state is even looked up, and the state stays usable by the browser that started it.
 */
const stateOf = (browserSecret: string) => b64url(createHash('sha256').update(browserSecret).digest());

export function belongsTo(state: string, browserSecret: string | undefined): boolean {
  if (!browserSecret) return false;
  const expected = Buffer.from(stateOf(browserSecret));
  const given = Buffer.from(state);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

const b64url = (buf: Buffer) => buf.toString('base64url');

/**
 * OpenID Connect authorization-code flow with PKCE, state and nonce. The ID token's signature is checked
 * against the provider's published keys, and its issuer, audience, expiry and nonce against this sign-in.
 */
export class OidcClient {
  private metadata?: Promise<ProviderMetadata>;
  private jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly settings: { issuer: string; clientId: string; clientSecret: string }) {}

  private discover(): Promise<ProviderMetadata> {
    this.metadata ??= (async () => {
      const res = await fetch(`${this.settings.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
      if (!res.ok) throw new Error(`OIDC discovery failed: ${res.status}`);
      const meta = (await res.json()) as ProviderMetadata;
      if (meta.issuer !== this.settings.issuer) throw new Error('OIDC discovery returned another issuer');
      this.jwks = createRemoteJWKSet(new URL(meta.jwks_uri));
      return meta;
    })().catch((err) => {
      this.metadata = undefined;
      throw err;
    });
    return this.metadata;
  }

  /** The provider's address to send the browser to, and the secret that browser must keep (in a cookie) to come back. */
  async authorizationUrl(ctx: Ctx, redirectUri: string, returnTo: string): Promise<{ url: string; browserSecret: string }> {
    const meta = await this.discover();
    const browserSecret = b64url(randomBytes(32));
    const state = stateOf(browserSecret);
    const nonce = b64url(randomBytes(24));
    const codeVerifier = b64url(randomBytes(48));
    const now = ctx.clock.now();
    await repo.saveOidcState(
      ctx.db,
      { state, nonce, codeVerifier, returnTo, createdAt: now.toISOString() },
      new Date(now.getTime() - STATE_TTL_MS).toISOString(),
    );
    const url = new URL(meta.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.settings.clientId,
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      state,
      nonce,
      code_challenge: b64url(createHash('sha256').update(codeVerifier).digest()),
      code_challenge_method: 'S256',
    }).toString();
    return { url: url.toString(), browserSecret };
  }

  /**
   * Completes the sign-in: the state must be the one of this browser's cookie; then one use of the state, code
   * exchange, ID-token checks, and the local user.
   */
  async complete(
    ctx: Ctx,
    params: { code: string; state: string },
    redirectUri: string,
    browserSecret: string | undefined,
  ): Promise<{ userId: number; returnTo: string }> {
    if (!belongsTo(params.state, browserSecret)) throw new AppError(400, SSO_OTHER_BROWSER);
    const saved = await repo.takeOidcState(ctx.db, params.state);
    if (!saved || ctx.clock.now().getTime() - Date.parse(saved.createdAt) > STATE_TTL_MS) {
      throw new AppError(400, '登录请求已失效，请重新登录');
    }
    const meta = await this.discover();
    const basic = Buffer.from(`${encodeURIComponent(this.settings.clientId)}:${encodeURIComponent(this.settings.clientSecret)}`).toString('base64');
    const res = await fetch(meta.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: params.code, redirect_uri: redirectUri, code_verifier: saved.codeVerifier }),
    });
    if (!res.ok) throw new AppError(400, '统一身份认证未通过，请重新登录');
    const { id_token: idToken } = (await res.json()) as { id_token?: string };
    if (!idToken) throw new AppError(400, '统一身份认证未通过，请重新登录');
    let claims: JWTPayload & { nonce?: string; preferred_username?: string; name?: string; email?: string };
    try {
      ({ payload: claims } = await jwtVerify(idToken, this.jwks!, {
        issuer: meta.issuer,
        audience: this.settings.clientId,
        currentDate: ctx.clock.now(),
      }));
    } catch {
      throw new AppError(400, '统一身份认证未通过，请重新登录');
    }
    if (claims.nonce !== saved.nonce || !claims.sub) throw new AppError(400, '统一身份认证未通过，请重新登录');
    const userId = await this.localUser(ctx, meta.issuer, claims.sub, claims);
    return { userId, returnTo: saved.returnTo };
  }

  /** The account keyed by (issuer, subject), created on first sign-in as a participant. */
  private async localUser(ctx: Ctx, issuer: string, subject: string, claims: { preferred_username?: string; name?: string; email?: string }) {
    const existing = await repo.findOidcUser(ctx.db, issuer, subject);
    if (existing) {
      if (existing.status !== 1) throw forbidden(ACCOUNT_DISABLED);
      return existing.id;
    }
    const now = ctx.clock.now().toISOString();
    const fallback = `sso_${createHash('sha256').update(`${issuer}|${subject}`).digest('hex').slice(0, 12)}`;
    const wanted = claims.preferred_username?.normalize('NFKC').trim();
    for (const username of wanted && /^[\p{L}\p{N}_.-]{3,32}$/u.test(wanted) ? [wanted, fallback] : [fallback]) {
      try {
        return await ctx.db.transaction().execute((trx) =>
          users.insertUser(
            trx,
            {
              username,
              usernameKey: usernameKey(username),
              passwordHash: null,
              phone: null,
              email: claims.email?.slice(0, 254) ?? null,
              userName: claims.name?.slice(0, 50) ?? null,
              oidcIssuer: issuer,
              oidcSubject: subject,
            },
            [ROLE_CODES.participant],
            now,
          ),
        );
      } catch (err) {
        // A local account already has this name: fall back to a name derived from the subject.
        if (!isUniqueViolation(err)) throw err;
      }
    }
    throw new AppError(409, '无法创建统一身份认证账号，请联系管理员');
  }
}
