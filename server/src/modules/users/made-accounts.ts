import { ROLE_CODES, usernameKey } from '@contest/shared';
import { randomBytes } from 'node:crypto';
import type { Ctx } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, forbidden } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import * as repo from './repo.ts';

/**
 * Signing in with a proved identity (a phone's code, a WeChat): the account that holds it, or a participant account
 * made for it now, without a password, named `prefix` and random letters. The identity's unique key closes the race of
 * two sign-ins at once: the one that loses finds the other's account. A disabled account is refused.
 */
export async function signInOrMake(
  ctx: Ctx,
  v: {
    find: () => Promise<{ id: number; status: number } | undefined>;
    prefix: string;
    phone: string | null;
    /** Gives the new account the identity, in its transaction. */
    attach: (trx: Db, userId: number, now: string) => Promise<void>;
    action: string;
  },
): Promise<{ userId: number; created: boolean }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const owner = await v.find();
    if (owner) {
      if (owner.status !== 1) throw forbidden('账号已被停用，请联系管理员');
      return { userId: owner.id, created: false };
    }
    const now = ctx.clock.now().toISOString();
    const username = await freeUsername(ctx, v.prefix);
    try {
      const userId = await ctx.db.transaction().execute(async (trx) => {
        const id = await repo.insertUser(
          trx,
          { username, usernameKey: usernameKey(username), passwordHash: null, phone: v.phone, email: null },
          [ROLE_CODES.participant],
          now,
        );
        await v.attach(trx, id, now);
        return id;
      });
      await writeAudit({ ...ctx, actor: null }, { action: v.action, entity: 'user', entityId: userId });
      return { userId, created: true };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new AppError(409, '请稍后重试');
}

/** A user name no account has: `prefix` and random letters. */
async function freeUsername(ctx: Ctx, prefix: string) {
  for (;;) {
    const name = `${prefix}${randomBytes(5).toString('hex')}`;
    if (!(await repo.usernameClash(ctx.db, name, usernameKey(name)))) return name;
  }
}
