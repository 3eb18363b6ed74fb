import { createChallenge, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { randomInt } from 'node:crypto';
import type { Deps } from '../context.ts';
import { badRequest } from '../http/errors.ts';

/**
 * ALTCHA (issue 35): a proof of work a browser solves before the platform sends a text, self-hosted, no third party.
 * The server signs a challenge (HMAC under a key derived from SECRET_KEY) whose answer is a counter between 0 and
 * MAX_COUNTER: the browser tries SHA-256 keys until it finds it (about a second), the server checks it with one. A
 * solved challenge is good once and for ten minutes, so a script pays the work for every code it asks for.
 */
const TTL_MS = 10 * 60_000;
const MAX_COUNTER = 50_000;
export const ALTCHA_FAILED = '安全验证未通过，请重试';
export const ALTCHA_USED = '安全验证已失效，请重试';

const secret = (deps: Pick<Deps, 'cipher'>) => deps.cipher.mac('altcha', 'challenge-signature');

export function altchaChallenge(deps: Pick<Deps, 'cipher' | 'clock'>): Promise<Challenge> {
  return createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: randomInt(MAX_COUNTER / 10, MAX_COUNTER),
    deriveKey,
    hmacSignatureSecret: secret(deps),
    expiresAt: new Date(deps.clock.now().getTime() + TTL_MS),
  });
}

/** Checks a solved challenge (the payload: base64 of JSON), once; a bad, expired or reused one is a 400 in Chinese. */
export async function checkAltcha(deps: Pick<Deps, 'cipher' | 'limiter'>, payload: string) {
  let parsed: { challenge?: Challenge; solution?: { counter: number; derivedKey: string } };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as typeof parsed;
  } catch {
    throw badRequest(ALTCHA_FAILED, { altcha: ALTCHA_FAILED });
  }
  const { challenge, solution } = parsed;
  if (!challenge?.parameters || typeof challenge.signature !== 'string' || typeof solution?.counter !== 'number' || typeof solution.derivedKey !== 'string')
    throw badRequest(ALTCHA_FAILED, { altcha: ALTCHA_FAILED });
  let verified = false;
  try {
    verified = (await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret: secret(deps) })).verified;
  } catch {
    verified = false;
  }
  if (!verified) throw badRequest(ALTCHA_FAILED, { altcha: ALTCHA_FAILED });
  const once = await deps.limiter.hit(`altcha:${challenge.signature}`, 1, TTL_MS);
  if (!once.allowed) throw badRequest(ALTCHA_USED, { altcha: ALTCHA_USED });
}
