import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

// Helmet itself, as @fastify/helmet depends on it: the same version makes the same headers.
const helmet = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'))('helmet') as (
  options: object,
) => (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * Helmet's security headers on every reply. @fastify/helmet builds helmet's middleware, parsing the content security
 * policy, on every request: a quarter of what a small public read costs. Nothing in these options depends on the
 * request, so helmet runs once here, into a recorder, and each request gets the recorded headers.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: object) {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string | number) => headers.push([name, String(value)]),
    removeHeader: () => {},
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err) => {
    if (err) throw err;
  });
  app.addHook('onRequest', (_req, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
