import type { z } from 'zod';

/**
 * Turns a reply into JSON through its route's response schema (the contract in routes.ts): what the schema does not
 * declare never leaves the server. With `strict` (tests, development), a reply holding such a field fails instead, so a
 * schema that no longer matches its handler is seen rather than silently narrowing what the pages receive.
 */
export function responseSerializer(strict: boolean) {
  return ({ schema, method, url }: { schema: unknown; method: string; url: string }) => {
    const contract = schema as z.ZodType;
    return (data: unknown) => {
      const result = contract.safeParse(data);
      if (!result.success) {
        const where = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
        throw new Error(`The reply of ${method} ${url} does not match its response schema: ${where}`);
      }
      if (strict) {
        const extra = undeclared(data, result.data, '');
        if (extra) throw new Error(`The reply of ${method} ${url} carries ${extra}, which its response schema does not declare`);
      }
      return JSON.stringify(result.data);
    };
  };
}

/** The first field present in what the handler sent and absent from what the schema let through. */
function undeclared(sent: unknown, kept: unknown, at: string): string | null {
  if (Array.isArray(sent) && Array.isArray(kept)) {
    for (let i = 0; i < sent.length; i++) {
      const found = undeclared(sent[i], kept[i], `${at}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (isRecord(sent) && isRecord(kept)) {
    for (const key of Object.keys(sent)) {
      if (sent[key] === undefined) continue;
      const path = at ? `${at}.${key}` : key;
      if (!(key in kept)) return path;
      const found = undeclared(sent[key], kept[key], path);
      if (found) return found;
    }
  }
  return null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
