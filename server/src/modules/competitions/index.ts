/**
 * Competitions: the brand's contests, their stages, menus, presets and readiness. What other modules may use: a
 * competition's row, its registration presets, whether a menu's action needs 实名认证, and the submission windows its stages open (one or, for grades, many).
 */
/** The competition as the caller may see it (else 404), or whether the caller manages it (policy.ts judges). */
export { defaultPresets, isManaged, managedCompetition, readableCompetition } from './service.ts';
export { findCompetition, listPresets, phaseOf, realNameRequired, submissionWindowOf, submissionWindowsOf } from './repo.ts';
/** For the demo data the seed writes (seed/demo.ts) and the editions a copy or an import writes. */
export { insertCompetition, insertPresets, insertStage } from './repo.ts';
