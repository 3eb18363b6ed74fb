/**
 * Awards: a question's award levels (by rank band or by hand), giving them on confirmed grades, and what a team won;
 * spec paths under /api/review/works (awards, awards/apply, awards/team, list/awards, exportPrize).
 * What other modules may use: the names of award levels, for the award name grades show on each grade row. Awards reads
 * the ranks of the grade rows in its own repo and asks grades (its index) for a team's grade and the export rows.
 */
export { awardNames } from './repo.ts';
