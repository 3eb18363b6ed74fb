import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Database_ } from './database.ts';
import type { MigrationContext } from './migrations/helpers.ts';
import * as m0001 from './migrations/0001_foundation.ts';
import * as m0002 from './migrations/0002_catalogue.ts';
import * as m0003 from './migrations/0003_registration.ts';
import * as m0004 from './migrations/0004_invoices.ts';
import * as m0005 from './migrations/0005_questions.ts';
import * as m0006 from './migrations/0006_tests.ts';
import * as m0007 from './migrations/0007_works.ts';
import * as m0008 from './migrations/0008_review.ts';
import * as m0009 from './migrations/0009_notices.ts';
import * as m0010 from './migrations/0010_indexes.ts';
import * as m0011 from './migrations/0011_lookalikes_pools_invitations.ts';
import * as m0012 from './migrations/0012_judge_totals.ts';
import * as m0013 from './migrations/0013_scoring_version.ts';
import * as m0014 from './migrations/0014_metric_options.ts';
import * as m0015 from './migrations/0015_prepared_answers.ts';
import * as m0016 from './migrations/0016_board_scores.ts';
import * as m0017 from './migrations/0017_search_indexes.ts';
import * as m0018 from './migrations/0018_notice_delivery.ts';
import * as m0019 from './migrations/0019_job_priority.ts';
import * as m0020 from './migrations/0020_scoring_programs.ts';
import * as m0021 from './migrations/0021_scoring_tenants.ts';
import * as m0022 from './migrations/0022_question_judging.ts';
import * as m0023 from './migrations/0023_job_run_time.ts';
import * as m0024 from './migrations/0024_competition_invoices.ts';
import * as m0025 from './migrations/0025_explicit_deadlines.ts';
import * as m0026 from './migrations/0026_judged_version.ts';
import * as m0027 from './migrations/0027_cancelled_results.ts';
import * as m0028 from './migrations/0028_metric_name.ts';
import * as m0029 from './migrations/0029_outbox.ts';
import * as m0030 from './migrations/0030_account_email.ts';
import * as m0031 from './migrations/0031_sms.ts';
import * as m0032 from './migrations/0032_message_channels.ts';
import * as m0033 from './migrations/0033_reminders.ts';
import * as m0034 from './migrations/0034_wechat.ts';
import * as m0035 from './migrations/0035_real_names.ts';
import * as m0036 from './migrations/0036_schools.ts';
import * as m0037 from './migrations/0037_eligibility.ts';
import * as m0038 from './migrations/0038_school_coordinators.ts';
import * as m0039 from './migrations/0039_school_orders.ts';
import * as m0040 from './migrations/0040_similarity.ts';
import * as m0041 from './migrations/0041_editions.ts';
import * as m0042 from './migrations/0042_publicity.ts';

type MigrationModule = { up(db: Parameters<Migration['up']>[0], ctx: MigrationContext): Promise<void> };

/** Every migration, in order; the same files run on SQLite and PostgreSQL. */
const MIGRATIONS: Record<string, MigrationModule> = {
  '0001_foundation': m0001,
  '0002_catalogue': m0002,
  '0003_registration': m0003,
  '0004_invoices': m0004,
  '0005_questions': m0005,
  '0006_tests': m0006,
  '0007_works': m0007,
  '0008_review': m0008,
  '0009_notices': m0009,
  '0010_indexes': m0010,
  '0011_lookalikes_pools_invitations': m0011,
  '0012_judge_totals': m0012,
  '0013_scoring_version': m0013,
  '0014_metric_options': m0014,
  '0015_prepared_answers': m0015,
  '0016_board_scores': m0016,
  '0017_search_indexes': m0017,
  '0018_notice_delivery': m0018,
  '0019_job_priority': m0019,
  '0020_scoring_programs': m0020,
  '0021_scoring_tenants': m0021,
  '0022_question_judging': m0022,
  '0023_job_run_time': m0023,
  '0024_competition_invoices': m0024,
  '0025_explicit_deadlines': m0025,
  '0026_judged_version': m0026,
  '0027_cancelled_results': m0027,
  '0028_metric_name': m0028,
  '0029_outbox': m0029,
  '0030_account_email': m0030,
  '0031_sms': m0031,
  '0032_message_channels': m0032,
  '0033_reminders': m0033,
  '0034_wechat': m0034,
  '0035_real_names': m0035,
  '0036_schools': m0036,
  '0037_eligibility': m0037,
  '0038_school_coordinators': m0038,
  '0039_school_orders': m0039,
  '0040_similarity': m0040,
  '0041_editions': m0041,
  '0042_publicity': m0042,
};

export async function migrateToLatest(database: Database_): Promise<void> {
  const ctx: MigrationContext = { dialect: database.dialect };
  const provider: MigrationProvider = {
    async getMigrations() {
      return Object.fromEntries(Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (db) => m.up(db, ctx) } satisfies Migration]));
    },
  };
  // Kysely looks for its bookkeeping tables in every schema it can see; on PostgreSQL they are pinned to the schema
  // this connection works in, or another schema's tables (another platform or test run in the same database) would
  // be taken for ours.
  const migrationTableSchema =
    database.dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]?.schema : undefined;
  const { error, results } = await new Migrator({ db: database.db, provider, migrationTableSchema }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
