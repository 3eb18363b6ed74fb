import { finalScore, judgeTotal, reviewScore, round2, type Aggregation } from '@contest/shared';
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * A judge's total becomes the criteria's points added up, out of their maxima added up (a 60- and a 40-point
 * criterion scored 50 and 30 make 80 / 100); before, it was each criterion's share of its maximum, weighted by a
 * separate weight, on 100 (79.17 for the same scores with equal weights). The weights go: a criterion weighs its
 * maximum. Rules saved before this still carry weights, which is how they are told apart here:
 * - the weights leave the rule;
 * - every assignment's total is added up again from its scores;
 * - grades not yet confirmed (a preview, or a re-review after a dispute) are computed again as `compute` does now:
 *   the judges' totals as sums, the review score as their mean (or trimmed mean) after putting each on 100, the
 *   final score from the stored test points, the ranks;
 * - confirmed grades were published, awarded and certified: their review, final scores and ranks stay as published.
 *   Their per-judge totals were on 100, and are put on the rule's maximum (× maximum / 100), so that they still
 *   combine into the published review score.
 * Raw rows keep one-word aliases: the connection's CamelCasePlugin would rename the others.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  const rules = await sql<{ qid: number; criteria: string; aggregation: string; rw: number; tw: number; state: number }>`
    select question_id as qid, criteria_json as criteria, aggregation, review_weight as rw, test_weight as tw, grade_state as state
    from review_rules order by question_id`.execute(db);
  for (const rule of rules.rows) {
    const criteria = JSON.parse(rule.criteria) as { id: string; maxScore: number; weight?: number }[];
    if (!criteria.some((c) => 'weight' in c)) continue;
    const plain = criteria.map(({ weight: _weight, ...c }) => c);
    await sql`update review_rules set criteria_json = ${JSON.stringify(plain)} where question_id = ${rule.qid}`.execute(db);
    const max = plain.reduce((sum, c) => sum + c.maxScore, 0);

    const assignments = await sql<{ id: number; team: number; status: number; scores: string }>`
      select id, team_id as team, status, scores_json as scores from review_assignments where question_id = ${rule.qid} order by id`.execute(db);
    const totals = new Map<number, number | null>();
    for (const a of assignments.rows) {
      const scores = JSON.parse(a.scores) as { criterionId: string; score: number | null }[];
      const total = judgeTotal(plain, Object.fromEntries(scores.map((s) => [s.criterionId, s.score])));
      totals.set(a.id, total);
      await sql`update review_assignments set total = ${total} where id = ${a.id}`.execute(db);
    }

    const grades = await sql<{ team: number; judges: string; points: number | null }>`
      select team_id as team, review_scores_json as judges, test_points as points from grades where question_id = ${rule.qid}`.execute(db);
    if (rule.state === 2) {
      for (const g of grades.rows) {
        const onMax = (JSON.parse(g.judges) as number[]).map((p) => round2((p / 100) * max));
        await sql`update grades set review_scores_json = ${JSON.stringify(onMax)} where question_id = ${rule.qid} and team_id = ${g.team}`.execute(db);
      }
      continue;
    }
    const computed = grades.rows.map((g) => {
      const submitted = assignments.rows.filter((a) => a.team === g.team && Number(a.status) === 2 && totals.get(a.id) !== null).map((a) => totals.get(a.id)!);
      const review = reviewScore(submitted, max, rule.aggregation as Aggregation);
      const points = g.points === null ? null : Number(g.points);
      return { team: g.team, submitted, review, final: finalScore(review, points, { reviewWeight: rule.rw, testWeight: rule.tw }) };
    });
    const ranked = computed.filter((r) => r.final !== null).sort((a, b) => b.final! - a.final!);
    const rank = new Map<number, number>();
    ranked.forEach((r, i) => rank.set(r.team, i > 0 && ranked[i - 1]!.final === r.final ? rank.get(ranked[i - 1]!.team)! : i + 1));
    for (const r of computed) {
      await sql`
        update grades set review_scores_json = ${JSON.stringify(r.submitted)}, review_score = ${r.review}, judges_done = ${r.submitted.length},
          final_score = ${r.final}, "rank" = ${rank.get(r.team) ?? null}
        where question_id = ${rule.qid} and team_id = ${r.team}`.execute(db);
    }
  }
}
