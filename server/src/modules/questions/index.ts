/**
 * Questions: a competition's problems, their files and audit. What other modules may use: nothing. A competition's
 * readiness and approval read and mark its questions in the competitions repo (competitions sit below questions: the
 * review and test-submission modules questions use depend on competitions, so competitions may not depend on them).
 */
export {};
