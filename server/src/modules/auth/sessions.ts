import { createHash, randomBytes } from 'node:crypto';
import type { Ctx } from '../../context.ts';
import type { IssuedSession } from '../../http/cookies.ts';
import * as repo from './repo.ts';

export const newSecret = () => randomBytes(32).toString('base64url');
export const sessionId = (secret: string) => createHash('sha256').update(secret).digest('hex');

export type { IssuedSession };

export async function createSession(ctx: Ctx, userId: number, kind: 'browser' | 'token'): Promise<IssuedSession> {
  const now = ctx.clock.now();
  const token = newSecret();
  const csrfToken = newSecret();
  const ttl = kind === 'browser' ? ctx.config.sessionTtlMs : ctx.config.tokenTtlMs;
  const expiresAt = new Date(now.getTime() + ttl);
  await repo.insertSession(ctx.db, {
    id: sessionId(token),
    userId,
    kind,
    csrfToken,
    ip: ctx.ip,
    userAgent: ctx.userAgent?.slice(0, 300) ?? null,
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
  });
  return { token, csrfToken, expiresAt };
}
