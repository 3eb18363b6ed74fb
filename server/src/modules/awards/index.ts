/**
 * Awards: a question's award levels (by rank band or by hand), giving them on confirmed grades, and what a team won;
 * spec paths under /api/review/works (awards, awards/apply, awards/team, list/awards, exportPrize).
 * What other modules may use: nothing. Awards reads the ranks of the grade rows in its own repo and asks grades (its
 * index) for a team's grade and the export rows; grades reads the award names of its rows in its own repo, so the two
 * modules depend one way.
 */
export {};
