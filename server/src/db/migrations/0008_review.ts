import { sql, type Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

const NEW_ORGANISER_CODES = ['review:rules:edit', 'review:expert:edit', 'review:assign:edit', 'competition:grade:edit'];

/**
 * Expert review and what follows it: review rules per question, the pool of expert judges and each question's judges,
 * works assigned to judges with their scores, grades, disputes, award levels, certificate templates and certificates.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('review_rules')
    .addColumn('question_id', 'integer', (c) => c.primaryKey().references('questions.id').onDelete('cascade'))
    .addColumn('criteria_json', 'text', (c) => c.notNull())
    .addColumn('judges_per_work', 'integer', (c) => c.notNull())
    .addColumn('aggregation', 'varchar(10)', (c) => c.notNull())
    .addColumn('review_weight', 'integer', (c) => c.notNull())
    .addColumn('test_weight', 'integer', (c) => c.notNull())
    .addColumn('blind', 'integer', (c) => c.notNull())
    .addColumn('dispute_days', 'integer', (c) => c.notNull())
    .addColumn('grade_state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('calculated_at', 'varchar(30)')
    .addColumn('confirmed_at', 'varchar(30)')
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('experts')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('organization', 'varchar(100)', (c) => c.notNull())
    .addColumn('speciality', 'varchar(100)')
    .addColumn('title', 'varchar(50)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('question_judges')
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('experts.user_id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('question_judges_pk', ['question_id', 'user_id'])
    .execute();

  // One work (a team's counted version, read at download time) given to one judge; a judge never gets a team twice.
  await db.schema
    .createTable('review_assignments')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('judge_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('code', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scores_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('comment', 'text')
    .addColumn('total', 'double precision')
    .addColumn('rereview', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('submitted_at', 'varchar(30)')
    .addUniqueConstraint('review_assignments_once', ['question_id', 'team_id', 'judge_id'])
    .addUniqueConstraint('review_assignments_code', ['question_id', 'code'])
    .execute();
  await db.schema.createIndex('review_assignments_judge').on('review_assignments').columns(['judge_id', 'question_id']).execute();

  await db.schema
    .createTable('award_levels')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('name', 'varchar(30)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('rank_from', 'integer')
    .addColumn('rank_to', 'integer')
    .addUniqueConstraint('award_levels_name', ['question_id', 'name'])
    .execute();

  await db.schema
    .createTable('grades')
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('review_scores_json', 'text', (c) => c.notNull())
    .addColumn('review_score', 'double precision')
    .addColumn('judges_done', 'integer', (c) => c.notNull())
    .addColumn('judges_total', 'integer', (c) => c.notNull())
    .addColumn('test_score', 'double precision')
    .addColumn('test_points', 'double precision')
    .addColumn('final_score', 'double precision')
    .addColumn('rank', 'integer')
    .addColumn('award_id', 'integer', (c) => c.references('award_levels.id').onDelete('set null'))
    .addColumn('award_manual', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('grades_pk', ['question_id', 'team_id'])
    .execute();

  // A team disputes its grade on a question once.
  await db.schema
    .createTable('score_disputes')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('answer', 'text')
    .addColumn('rereview', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('answered_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('answered_at', 'varchar(30)')
    .addUniqueConstraint('score_disputes_once', ['question_id', 'team_id'])
    .execute();

  await db.schema
    .createTable('certificate_templates')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('background_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('fields_json', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  // The template a question's certificates use, and the progress of their generation.
  await db.schema
    .createTable('certificate_runs')
    .addColumn('question_id', 'integer', (c) => c.primaryKey().references('questions.id').onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) => c.references('certificate_templates.id').onDelete('set null'))
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'varchar(1000)')
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('certificates')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('cert_no', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('verify_code', 'varchar(32)', (c) => c.notNull())
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('holder_kind', 'varchar(10)', (c) => c.notNull())
    // The member's user id, or the teacher row's id.
    .addColumn('holder_ref', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('holder_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('school', 'varchar(100)')
    .addColumn('award_name', 'varchar(30)', (c) => c.notNull())
    .addColumn('file_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('certificates_holder', ['question_id', 'team_id', 'holder_kind', 'holder_ref'])
    .execute();
  await db.schema.createIndex('certificates_user').on('certificates').columns(['user_id']).execute();
  await db.schema.createIndex('certificates_team').on('certificates').columns(['team_id']).execute();

  // Databases seeded before this version give their organiser role the new review codes.
  for (const code of NEW_ORGANISER_CODES) {
    await sql`insert into role_permissions (role_id, code) select id, ${code} from roles r where r.code = 'organiser'
      and not exists (select 1 from role_permissions p where p.role_id = r.id and p.code = ${code})`.execute(db);
  }
}
