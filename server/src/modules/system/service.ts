import type { AuthedCtx, Ctx, Deps } from '../../context.ts';
import { countLiveSessions } from '../auth/index.ts';
import { countOrganisations, organisationOptions } from '../orgs/index.ts';
import { countRoles } from '../roles/index.ts';
import { countUsers } from '../users/index.ts';
import * as policy from '../../policy.ts';
import * as repo from './repo.ts';

export { todo, unfinishedJudges } from './todo.ts';

/** Whether the database answers: the health check's one question. */
export async function databaseUp(deps: Pick<Deps, 'db'>): Promise<boolean> {
  try {
    await repo.ping(deps.db);
    return true;
  } catch {
    return false;
  }
}

/** The back office's figures, scoped as every organiser view is: the platform sees all, an organiser its own organisation (none: zeros). */
export async function dashboard(ctx: AuthedCtx) {
  const now = ctx.clock.now().toISOString();
  const scope = policy.orgScope(ctx);
  const [users, roles, orgs, sessions] = await Promise.all([
    countUsers(ctx.db, scope),
    countRoles(ctx.db, scope),
    scope.all ? countOrganisations(ctx.db) : Promise.resolve(null),
    countLiveSessions(ctx.db, now, scope),
  ]);
  return { scope: scope.all ? ('platform' as const) : ('organisation' as const), ...users, roles, organisations: orgs, sessions };
}

export const orgOptions = (ctx: Ctx) => organisationOptions(ctx.db);
