/**
 * Grades (computed from the judges' totals and the private test board), disputes and awards; spec paths under
 * /api/review/works (grade, calcFinalScore, confirmFinalScore, disputeScore, awards).
 * What other modules may use: nothing yet. No module calls into grades; certificates read the confirmed grade rows in
 * their own repo and the grade state through review's rule.
 */
export {};
