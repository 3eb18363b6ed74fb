import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

export interface ProviderUser {
  sub: string;
  preferred_username?: string;
  name?: string;
  email?: string;
}

/**
 * A small OpenID Connect provider for tests, speaking the real protocol: discovery, an authorization
 * endpoint that signs the configured user in at once, a token endpoint checking client credentials,
 * redirect URI and PKCE, and RS256 ID tokens verifiable through its JWKS.
 */
export async function startOidcProvider(options: { clientId: string; clientSecret: string }) {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { redirectUri: string; challenge: string; nonce: string; user: ProviderUser }>();
  const state = {
    user: { sub: 'u-1001', preferred_username: 'ssouser', name: '单点用户', email: 'sso@example.edu.cn' } as ProviderUser,
    /** When set, ID tokens are signed with this key instead (a forged token). */
    signingKey: undefined as CryptoKey | undefined,
    /** When set, ID tokens carry this nonce instead of the one asked for. */
    nonceOverride: undefined as string | undefined,
    audienceOverride: undefined as string | undefined,
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url!, issuer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const p = url.searchParams;
      if (p.get('client_id') !== options.clientId || p.get('response_type') !== 'code' || p.get('code_challenge_method') !== 'S256') {
        return json(400, { error: 'invalid_request' });
      }
      const code = randomBytes(16).toString('hex');
      codes.set(code, { redirectUri: p.get('redirect_uri')!, challenge: p.get('code_challenge')!, nonce: p.get('nonce')!, user: state.user });
      const back = new URL(p.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', p.get('state')!);
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const form = new URLSearchParams(raw);
      const [id, secret] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':')
        .map(decodeURIComponent);
      if (id !== options.clientId || secret !== options.clientSecret) return json(401, { error: 'invalid_client' });
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (!grant || grant.redirectUri !== form.get('redirect_uri') || createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) {
        return json(400, { error: 'invalid_grant' });
      }
      const idToken = await new SignJWT({ nonce: state.nonceOverride ?? grant.nonce, ...grant.user })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(issuer)
        .setAudience(state.audienceOverride ?? options.clientId)
        .setSubject(grant.user.sub)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(state.signingKey ?? privateKey);
      return json(200, { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 300, id_token: idToken });
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
