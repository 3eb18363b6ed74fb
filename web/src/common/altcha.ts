import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import { authApi } from '#src/api/auth.ts';

/**
 * Solves the server's ALTCHA challenge in the browser (a proof of work of about a second, no third party) and answers
 * the payload a request for an SMS code carries: base64 of the challenge and its solution.
 */
export async function solveAltcha(): Promise<string> {
  const challenge = await authApi.altcha();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('安全验证超时，请重试');
  return btoa(JSON.stringify({ challenge, solution }));
}
