import { envelope } from '@contest/shared';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializer } from '../src/http/serialize.ts';

/** The response schema is the contract: what it does not declare never leaves; in strict mode (tests) it fails loudly. */
describe('response schemas', () => {
  const apps: ReturnType<typeof Fastify>[] = [];
  afterEach(async () => Promise.all(apps.splice(0).map((a) => a.close())));

  async function serve(strict: boolean, data: unknown) {
    const app = Fastify();
    apps.push(app);
    app.setSerializerCompiler(responseSerializer(strict));
    const schema = envelope(z.object({ id: z.number(), name: z.string(), tags: z.array(z.object({ label: z.string() })) }));
    app.get('/x', { schema: { response: { 200: schema } } }, async () => ({ status: 200, message: '操作成功', data }));
    return app.inject({ method: 'GET', url: '/x' });
  }

  it('sends what the schema declares', async () => {
    const res = await serve(true, { id: 1, name: 'a', tags: [{ label: 'x' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ id: 1, name: 'a', tags: [{ label: 'x' }] });
  });

  it('drops an undeclared field in production, so a secret added to a row does not leak', async () => {
    const res = await serve(false, { id: 1, name: 'a', passwordHash: 'h', tags: [{ label: 'x', orgId: 3 }] });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('passwordHash');
    expect(res.body).not.toContain('orgId');
    expect(res.json().data).toEqual({ id: 1, name: 'a', tags: [{ label: 'x' }] });
  });

  it('fails in strict mode on an undeclared field, nested ones included, naming it', async () => {
    const top = await serve(true, { id: 1, name: 'a', passwordHash: 'h', tags: [] });
    expect(top.statusCode).toBe(500);
    expect(top.body).not.toContain('"h"');
    const nested = await serve(true, { id: 1, name: 'a', tags: [{ label: 'x', orgId: 3 }] });
    expect(nested.statusCode).toBe(500);
    const serializer = responseSerializer(true)({ schema: envelope(z.object({ id: z.number() })), method: 'GET', url: '/y' });
    expect(() => serializer({ status: 200, message: '', data: { id: 1, extra: [1] } })).toThrow('GET /y carries data.extra');
  });

  it('fails when a reply does not match its schema, in either mode', async () => {
    for (const strict of [true, false]) {
      const res = await serve(strict, { id: '1', name: 'a', tags: [] });
      expect(res.statusCode).toBe(500);
    }
  });
});
