import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * Deadlines are explicit (issue 33): the menus 选择赛题, 提交作品 and 提交测试 each name the stage whose end is their
 * deadline (`deadline_stage_id`, null: the competition's end) instead of the lifecycle guessing it from stage names.
 * Existing competitions keep the deadlines they had: each menu takes the stage the old rule chose (the last-starting
 * stage with an end whose name spoke of it), so no window moves when this runs. The rule lives on only here.
 */
const OLD_WORDS: Record<string, RegExp> = { SUBMIT_WORKS: /提交|作品/, SUBMIT_TEST: /提交|测试/, CHOICE_SET: /选题|选择赛题/ };

// One-word column aliases: the rows read the same with or without the camel-case plugin.
type Stage = { id: number; cid: number; name: string; starts: string; ends: string | null };

function oldStage(stages: Stage[], code: string): Stage | null {
  const named = stages.filter((s) => s.ends && OLD_WORDS[code]!.test(s.name)).sort((a, b) => (a.starts < b.starts ? -1 : a.starts > b.starts ? 1 : 0));
  return named.length ? named[named.length - 1]! : null;
}

export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('competition_presets').addColumn('deadline_stage_id', 'integer').execute();
  await backfillDeadlines(db);
}

/** Gives each window menu the stage the old name rule chose for it. */
export async function backfillDeadlines(db: Kysely<unknown>): Promise<void> {
  const stages = (await sql<Stage>`select id, competition_id as cid, name, start_date as starts, end_date as ends from competition_stages`.execute(db)).rows;
  const byCompetition = new Map<number, Stage[]>();
  for (const s of stages) byCompetition.set(s.cid, [...(byCompetition.get(s.cid) ?? []), s]);
  const presets = (
    await sql<{
      id: number;
      cid: number;
      code: string;
    }>`select id, competition_id as cid, menu_code as code from competition_presets where menu_code in ('CHOICE_SET', 'SUBMIT_WORKS', 'SUBMIT_TEST')`.execute(
      db,
    )
  ).rows;
  for (const p of presets) {
    const own = byCompetition.get(p.cid) ?? [];
    // The old choice window fell back to the works stage: keep it where it was.
    const stage = oldStage(own, p.code) ?? (p.code === 'CHOICE_SET' ? oldStage(own, 'SUBMIT_WORKS') : null);
    if (stage) await sql`update competition_presets set deadline_stage_id = ${stage.id} where id = ${p.id}`.execute(db);
  }
}
