/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import {
  ACTION_CODES,
  ACTION_TITLES,
  ADMIN_MENU_CODES,
  ADMIN_MENU_GROUPS,
  ADMIN_ROUTES,
  ALL_PERMISSION_CODES,
  MENU_GROUP_CODES,
  PAYMENT_METHOD_MENUS,
  PERMISSION_CATALOGUE,
  ROLE_PRESETS,
  SITE_CODES,
  flattenRoutes,
  isPermissionCode,
  roleBody,
  type AdminRoute,
  type PermissionCode,
} from '../src/index.ts';

const TABLES = { SITE_CODES, MENU_GROUP_CODES, ADMIN_MENU_CODES, ACTION_CODES };
const tableCodes: string[] = Object.values(TABLES).flatMap((t) => Object.values(t));

/** Spec §6 word for word: the only place outside permissions.ts that spells codes, to pin the tables to the spec. */
const SPEC_SITE = ['bdrace:userCenter:menu', 'bdrace:review:menu', 'bdrace:manager:menu', 'bdrace:userCenter:index'];
const SPEC_GROUPS: Record<string, string[]> = {
  'bdrace:partner': ['competition:partner:menu', 'competition:organization:menu'],
  'bdrace:competition': [
    'competition:type:menu',
    'competition:brand:menu',
    'competition:brandRecommend:menu',
    'competition:competition:menu',
    'competition:competitionAudit:menu',
  ],
  'bdrace:register': ['payment:register:menu'],
  'bdrace:financial': ['order:order:menu', 'invoice:invoice:menu', 'invoice:config:menu'],
  'bdrace:review': ['review:rules:menu', 'review:expert:menu', 'review:assign:menu', 'competition:question:menu'],
  'bdrace:message': ['message:notice:menu'],
  'bdrace:payment': ['payment:alipay:menu', 'payment:wechat:menu', 'payment:bank:menu', 'payment:ccbBank:menu', 'payment:custom:menu'],
};

function routePermissions(routes: AdminRoute[]): PermissionCode[] {
  return routes.flatMap((r) => {
    const own = r.meta.permission === undefined ? [] : [r.meta.permission].flat();
    return [...own, ...routePermissions(r.children ?? [])];
  });
}

describe('permission code tables', () => {
  it('hold every code once, and ALL_PERMISSION_CODES is exactly the tables', () => {
    expect(new Set(tableCodes).size).toBe(tableCodes.length);
    expect(ALL_PERMISSION_CODES).toHaveLength(tableCodes.length);
    expect([...ALL_PERMISSION_CODES].sort()).toEqual([...tableCodes].sort());
  });

  it('keep the codes of spec §6 exactly', () => {
    expect(Object.values(SITE_CODES).sort()).toEqual([...SPEC_SITE].sort());
    for (const [group, items] of Object.entries(SPEC_GROUPS)) {
      const declared = ADMIN_MENU_GROUPS.find((g) => g.code === group);
      expect(declared, group).toBeDefined();
      expect(declared!.items.map((i) => i.code)).toEqual(items);
    }
  });

  it('follow the spec patterns: bdrace:<group>, <module>:<entity>:menu and <module>:<entity>:<action>', () => {
    for (const code of Object.values(SITE_CODES)) expect(code).toMatch(/^bdrace:[a-zA-Z]+:(menu|index)$/);
    for (const code of Object.values(MENU_GROUP_CODES)) expect(code).toMatch(/^bdrace:[a-z]+$/);
    for (const code of Object.values(ADMIN_MENU_CODES)) expect(code).toMatch(/^[a-z]+:[a-zA-Z]+:menu$/);
    for (const code of Object.values(ACTION_CODES)) expect(code).toMatch(/^[a-z]+:[a-zA-Z]+:(edit|audit|review)$/);
  });

  it('place each group and menu code in exactly one menu group', () => {
    expect(ADMIN_MENU_GROUPS.map((g) => g.code).sort()).toEqual(Object.values(MENU_GROUP_CODES).sort());
    const items = ADMIN_MENU_GROUPS.flatMap((g) => g.items.map((i) => i.code));
    expect([...items].sort()).toEqual(Object.values(ADMIN_MENU_CODES).sort());
  });

  it('give every action a title and list every code once in the role editor', () => {
    for (const code of Object.values(ACTION_CODES)) expect(ACTION_TITLES[code]).toMatch(/\p{Script=Han}/u);
    const listed = PERMISSION_CATALOGUE.flatMap((g) => g.items.map((i) => i.code));
    expect([...listed].sort()).toEqual([...tableCodes].sort());
  });

  it('are the only codes role presets, admin routes and payment menus use', () => {
    for (const [role, preset] of Object.entries(ROLE_PRESETS)) {
      expect(new Set(preset.codes).size, role).toBe(preset.codes.length);
      for (const code of preset.codes) expect(tableCodes, `${role}: ${code}`).toContain(code);
    }
    expect([...ROLE_PRESETS.admin.codes].sort()).toEqual([...tableCodes].sort());
    for (const code of routePermissions(ADMIN_ROUTES)) expect(tableCodes, code).toContain(code);
    for (const { code } of Object.values(PAYMENT_METHOD_MENUS)) expect(Object.values(ADMIN_MENU_CODES)).toContain(code);
  });

  it('open every back-office menu from a route under its own group', () => {
    const groupOf = new Map(ADMIN_MENU_GROUPS.flatMap((g) => g.items.map((i) => [i.code as string, g.code as string])));
    for (const group of ADMIN_ROUTES.filter((r) => r.children)) {
      for (const { route } of flattenRoutes(group.children!)) {
        for (const code of [route.meta.permission ?? []].flat()) expect(groupOf.get(code), route.path).toBe(group.meta.permission);
      }
    }
    const opened = new Set(routePermissions(ADMIN_ROUTES));
    for (const code of Object.values(ADMIN_MENU_CODES)) expect(opened.has(code), code).toBe(true);
  });

  it('tell a code from a look-alike when it arrives as a string', () => {
    expect(isPermissionCode(ADMIN_MENU_CODES.competition)).toBe(true);
    expect(isPermissionCode('competition:competiton:menu')).toBe(false);
    expect(roleBody.safeParse({ code: 'viewer', name: '查看', permissions: [ADMIN_MENU_CODES.order] }).success).toBe(true);
    const typo = roleBody.safeParse({ code: 'viewer', name: '查看', permissions: ['order:orders:menu'] });
    expect(typo.error?.issues[0]?.message).toBe('未知的权限编码');
  });

  it('reject a misspelt code at compile time', () => {
    // @ts-expect-error a misspelt code is not a PermissionCode (tsc -p packages/shared checks this line)
    const misspelt: PermissionCode = 'competition:competiton:menu';
    // @ts-expect-error no such key in the table
    const missingKey = ADMIN_MENU_CODES.competiton;
    // @ts-expect-error a route's permission takes only codes of the tables
    const route: AdminRoute = { path: '/x', name: 'X', meta: { title: 'X', permission: 'order:orders:menu' } };
    expect(isPermissionCode(misspelt)).toBe(false);
    expect(missingKey).toBeUndefined();
    expect(isPermissionCode(route.meta.permission as string)).toBe(false);
  });
});

/**
 * Sources outside permissions.ts name codes only through the tables. Migrations are history and keep the strings
 * they ran with; tests keep literal codes where they check what the API sends.
 */
describe('code string literals in sources', () => {
  const sources = import.meta.glob(
    [
      '../../../server/src/**/*.ts',
      '../../../web/src/**/*.{ts,tsx}',
      '../src/**/*.ts',
      '!**/*.test.{ts,tsx}',
      '!../../../server/src/db/migrations/**',
      '!../src/permissions.ts',
    ],
    { query: '?raw', import: 'default', eager: true },
  ) as Record<string, string>;
  const modules = new Set(tableCodes.map((c) => c.split(':')[0]));
  const literal = /(['"`])([a-z]+:[a-zA-Z]+(?::[a-zA-Z]+)?)\1/g;
  // Comments may name a code (they explain which one a check means); only code counts.
  const comments = /^\s*(\/\*[\s\S]*?\*\/|\/\/.*$)/gm;

  it('reads the server, web and shared sources', () => {
    const files = Object.keys(sources);
    expect(files.some((f) => f.includes('/server/src/modules/'))).toBe(true);
    expect(files.some((f) => f.includes('/web/src/admin/'))).toBe(true);
    expect(files.some((f) => f.endsWith('/src/menu.ts'))).toBe(true);
  });

  it('has no permission code spelt as a string', () => {
    const found: string[] = [];
    for (const [file, text] of Object.entries(sources)) {
      for (const m of text.replace(comments, '').matchAll(literal)) if (modules.has(m[2]!.split(':')[0]!)) found.push(`${file}: ${m[2]}`);
    }
    expect(found).toEqual([]);
  });
});
