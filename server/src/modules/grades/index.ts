/**
 * Grades (computed from the judges' totals and the private test board) and disputes of them; spec paths under
 * /api/review/works (grade, calcFinalScore, confirmFinalScore, exportGrade, myGrade, disputeScore, dispute).
 * What other modules may use: one team's grade as the grade list shows it, and the rows of the grade export with the
 * team's people and its columns (awards answer a hand-set award with the grade, and export the awarded rows as the
 * prize list). Grades reads the award names of its rows in its own repo (awards depend on grades, not back);
 * certificates read the confirmed grade
 * rows in their own repo and the grade state through review's rule.
 */
export { exportBatches, exportRows, teamGrade, type ExportRow } from './service.ts';
export { GROUP_COLUMN, TEAM_COLUMNS } from './columns.ts';
