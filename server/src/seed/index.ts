import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ALL_PERMISSION_CODES, ROLE_CODES, ROLE_PRESETS, checkPasswordStrength, type RoleCode } from '@contest/shared';
import type { Config } from '../config.ts';
import type { Clock } from '../context.ts';
import { hashPassword } from '../crypto/passwords.ts';
import { insertUser } from '../modules/users/index.ts';
import type { Db } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { seedDemo } from './demo.ts';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

export function randomPassword(length = 16): string {
  for (;;) {
    const pw = Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    if (checkPasswordStrength(pw) === null) return pw;
  }
}

export interface SeededAccount {
  username: string;
  password: string;
  role: string;
}

/** The platform administrator always holds every code, including codes added by later versions. */
async function syncAdminRole(db: Db) {
  const admin = await db.selectFrom('roles').select('id').where('code', '=', ROLE_CODES.admin).executeTakeFirst();
  if (!admin) return;
  const have = new Set((await db.selectFrom('rolePermissions').select('code').where('roleId', '=', admin.id).execute()).map((r) => r.code));
  const missing = ALL_PERMISSION_CODES.filter((c) => !have.has(c));
  if (missing.length)
    await db
      .insertInto('rolePermissions')
      .values(missing.map((code) => ({ roleId: admin.id, code })))
      .execute();
}

/**
 * Fills an empty database: the four seed roles, the administrator and, unless turned off, demo content.
 * A database that already has users is never touched beyond keeping the admin role complete.
 */
export async function seedIfEmpty(db: Db, config: Config, clock: Clock): Promise<SeededAccount[]> {
  const hasUsers = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (hasUsers) {
    await syncAdminRole(db);
    return [];
  }
  const now = clock.now().toISOString();
  const adminPassword = config.adminPassword ?? randomPassword();
  const accounts: SeededAccount[] = [{ username: 'admin', password: adminPassword, role: ROLE_PRESETS.admin.name }];
  const adminHash = await hashPassword(adminPassword);
  const demoAccounts = config.seedDemo
    ? [
        { username: 'demo', password: randomPassword(), role: ROLE_CODES.participant },
        { username: 'judge', password: randomPassword(), role: ROLE_CODES.judge },
        { username: 'organiser', password: randomPassword(), role: ROLE_CODES.organiser },
      ]
    : [];
  const demoHashes = await Promise.all(demoAccounts.map((a) => hashPassword(a.password)));

  try {
    await db.transaction().execute(async (trx) => {
      for (const [code, preset] of Object.entries(ROLE_PRESETS)) {
        const { id } = await trx
          .insertInto('roles')
          .values({ code, name: preset.name, description: preset.description, builtin: 1 })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('rolePermissions')
          .values(preset.codes.map((c) => ({ roleId: id, code: c })))
          .execute();
      }
      await insertUser(
        trx,
        { username: 'admin', usernameKey: 'admin', passwordHash: adminHash, phone: null, email: null, userName: '平台管理员' },
        [ROLE_CODES.admin],
        now,
      );
      if (config.seedDemo) {
        await seedDemo(
          trx,
          clock.now(),
          demoAccounts.map((a, i) => ({ ...a, passwordHash: demoHashes[i]! })),
        );
      }
    });
  } catch (err) {
    // Several instances starting together on an empty database: one seeds, the others find its rows and go on.
    if (isUniqueViolation(err) && (await db.selectFrom('users').select('id').limit(1).executeTakeFirst())) return [];
    throw err;
  }

  if (!config.adminPassword) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const file = path.join(config.dataDir, 'initial-admin-password.txt');
    fs.writeFileSync(file, `${adminPassword}\n`, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
  }
  for (const a of demoAccounts) accounts.push({ ...a, role: ROLE_PRESETS[a.role as RoleCode].name });
  return accounts;
}
