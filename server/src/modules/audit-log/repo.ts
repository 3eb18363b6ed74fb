import type { Ctx } from '../../context.ts';
import type { Db } from '../../db/database.ts';

const HIDDEN = new Set(['passwordHash', 'password', 'token', 'csrfToken']);

function snapshot(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return JSON.stringify(value, (k, v) => (HIDDEN.has(k) ? undefined : v));
}

/** One line of the audit log for a change made by a back-office user (ARCHITECTURE §4.6). */
export async function writeAudit(
  ctx: Ctx,
  entry: { action: string; entity: string; entityId: string | number | null; before?: unknown; after?: unknown },
  db: Db = ctx.db,
): Promise<void> {
  await db
    .insertInto('auditLog')
    .values({
      actorId: ctx.actor?.userId ?? null,
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId === null ? null : String(entry.entityId),
      beforeJson: snapshot(entry.before),
      afterJson: snapshot(entry.after),
      ip: ctx.ip,
      createdAt: ctx.clock.now().toISOString(),
    })
    .execute();
}
