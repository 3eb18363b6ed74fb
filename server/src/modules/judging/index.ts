/**
 * Judging: the review centre's side of review (spec paths /api/review/center/* and the judge's PUT /api/review/works/{id}).
 * What other modules may use: nothing. It builds on review's rule and assignments; which assignment is a judge's is
 * decided by the policy.
 */
export {};
