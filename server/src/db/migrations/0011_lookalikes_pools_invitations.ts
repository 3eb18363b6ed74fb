import { usernameSkeleton } from '@contest/shared/skeleton';
import { sql, type Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/**
 * Three separations:
 * - usernames that only look alike: each user's skeleton (UTS #39), unique, so a look-alike of an existing name is
 *   refused by the database even when two registrations race;
 * - organisations in the expert pool: which organisation added an expert (none: the platform's shared pool);
 * - invitations that say nothing of who owns a phone number: the account the leader typed is kept, and the invitee
 *   may be nobody (the typed account matched no one who could be invited).
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await usernameSkeletons(db);
  await expertOrganisations(db);
  await invitationAccounts(db, ctx);
}

/**
 * Existing users get their skeleton in the order they registered. A later user whose name looks like an earlier
 * one's keeps the account but no skeleton (NULL is never a duplicate): the earlier one holds the skeleton, so new
 * look-alikes of either are still refused.
 */
async function usernameSkeletons(db: Kysely<unknown>) {
  await db.schema.alterTable('users').addColumn('username_skeleton', 'varchar(255)').execute();
  const users = await sql<{ id: number; username: string }>`select id, username from users order by id`.execute(db);
  const taken = new Set<string>();
  for (const u of users.rows) {
    const skeleton = usernameSkeleton(u.username);
    if (taken.has(skeleton)) continue;
    taken.add(skeleton);
    await sql`update users set username_skeleton = ${skeleton} where id = ${u.id}`.execute(db);
  }
  await db.schema.createIndex('users_username_skeleton').on('users').column('username_skeleton').unique().execute();
}

/**
 * The organisation that added each expert, read from the audit log (the adder's organisation); an expert with no
 * such entry, or added by someone of no organisation (the platform administrator), is in the platform's pool.
 */
async function expertOrganisations(db: Kysely<unknown>) {
  await db.schema
    .alterTable('experts')
    .addColumn('org_id', 'integer', (c) => c.references('organisations.id').onDelete('set null'))
    .execute();
  await sql`
    update experts set org_id = (
      select u.org_id from audit_log a join users u on u.id = a.actor_id
      where a.action = 'review.expert.add' and a.entity = 'user' and a.entity_id = cast(experts.user_id as varchar(64))
      order by a.id desc limit 1
    )`.execute(db);
  await db.schema.createIndex('experts_org').on('experts').column('org_id').execute();
}

/**
 * `account`: what the leader typed (a username or phone number, as `usernameKey` folds it), shown to the leader
 * instead of the invitee's name.
 * `invitee_id` becomes optional. SQLite cannot drop NOT NULL in place, so there the table is rebuilt.
 */
async function invitationAccounts(db: Kysely<unknown>, ctx: MigrationContext) {
  if (ctx.dialect === 'postgres') {
    await sql`alter table team_invitations alter column invitee_id drop not null`.execute(db);
    await db.schema.alterTable('team_invitations').addColumn('account', 'text').execute();
  } else {
    await db.schema
      .createTable('team_invitations_new')
      .addColumn('id', 'integer', (c) => idColumn(c, ctx))
      .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
      .addColumn('inviter_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('invitee_id', 'integer', (c) => c.references('users.id'))
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('decided_at', 'varchar(30)')
      .addColumn('account', 'text')
      .execute();
    await sql`
      insert into team_invitations_new (id, team_id, competition_id, inviter_id, invitee_id, status, created_at, decided_at)
      select id, team_id, competition_id, inviter_id, invitee_id, status, created_at, decided_at from team_invitations`.execute(db);
    await db.schema.dropTable('team_invitations').execute();
    await db.schema.alterTable('team_invitations_new').renameTo('team_invitations').execute();
    await db.schema.createIndex('team_invitations_invitee').on('team_invitations').columns(['invitee_id', 'status']).execute();
  }
  // Invitations made before: the invitee's username is what the leader saw of them (kept as typed accounts are: its key).
  await sql`update team_invitations set account = (select u.username_key from users u where u.id = team_invitations.invitee_id)`.execute(db);
  // One pending invitation per account typed; the same person reached by name and by phone may hold two.
  await sql`drop index if exists team_invitations_one_pending`.execute(db);
  await db.schema
    .createIndex('team_invitations_one_pending')
    .on('team_invitations')
    .columns(['team_id', 'account'])
    .unique()
    .where(sql.ref('status'), '=', 0)
    .execute();
}
