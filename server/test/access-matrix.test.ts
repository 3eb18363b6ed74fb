import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { describeRule, type RegisteredRoute } from '../src/http/access.ts';
import { ADMIN_PASSWORD, Client, DATABASES, createTestApp, loggedIn, registerUser, type TestApp } from './helpers.ts';

/** Fills path parameters with a value that exists or not: access is decided before the object is looked up. */
const concreteUrl = (url: string) => url.replace(/:(\w+)(\([^)]*\))?/g, '1').replace(/\*$/, 'x');

type Who = 'anonymous' | 'participant' | 'administrator';

function expected(route: RegisteredRoute, who: Who): 'allow' | 401 | 403 {
  const { rule } = route;
  if ('access' in rule && rule.access === 'public') return 'allow';
  if (who === 'anonymous') return 401;
  if ('access' in rule) return 'allow';
  return who === 'administrator' ? 'allow' : 403;
}

describe.each(DATABASES)('access matrix on %s', (kind) => {
  let t: TestApp;
  let clients: Record<Who, Client>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await registerUser(t.app, 'matrixuser');
    clients = {
      anonymous: new Client(t.app),
      participant: await loggedIn(t.app, 'matrixuser'),
      administrator: await loggedIn(t.app, 'admin', ADMIN_PASSWORD),
    };
  });
  afterAll(() => t.close());

  it('has registered routes, each with exactly one declared rule', () => {
    expect(t.routes.length).toBeGreaterThan(15);
    for (const r of t.routes) expect(describeRule(r.rule)).toMatch(/^(public|user|permission \S+)$/);
  });

  it('gives every role exactly the access each route declares', async () => {
    const failures: string[] = [];
    for (const route of t.routes) {
      if (route.url.startsWith('/api/docs') || route.method === 'HEAD' || route.method === 'OPTIONS') continue;
      for (const who of Object.keys(clients) as Who[]) {
        // Logging out would end the session the rest of the matrix needs.
        if (route.url === '/api/auth/logout' && who !== 'anonymous') continue;
        // An admitted message stream stays open; notices.test.ts reads it over real HTTP.
        if (route.url === '/api/message/notice/stream' && expected(route, who) === 'allow') continue;
        const res = await clients[who].request({ method: route.method, url: concreteUrl(route.url), payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
        const want = expected(route, who);
        const got = res.statusCode;
        const ok = want === 'allow' ? got !== 401 && got !== 403 : got === want;
        if (!ok) failures.push(`${route.method} ${route.url} as ${who}: expected ${want}, got ${got} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('route registry', () => {
  it('refuses to start when a route declares no access rule', async () => {
    const { buildApp } = await import('../src/app.ts');
    const t = await createTestApp('sqlite');
    try {
      // A second app on the same database, with one extra route that declares nothing.
      const bad = buildApp({
        config: t.config,
        database: t.database,
        extraRoutes: (app) => {
          app.get('/api/undeclared', async () => 'oops');
        },
      });
      await expect(bad).rejects.toThrow(/Routes without an access rule: GET \/api\/undeclared/);
    } finally {
      await t.close();
    }
  });
});
