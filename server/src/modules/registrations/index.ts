/**
 * Registrations: a team's application to a competition and its review flow. What other modules may use: the rows teams
 * write when they register or change, a team's registration, and a registration with its flow (the detail the teams
 * module shows with the team). Registrations never read teams: teams depend on registrations, not back.
 */
export { findRegisterOfTeam, insertFlow, insertRegister, reopenAtSchool, transition } from './repo.ts';
export { decideAtSchool, registerWithFlows, schoolReviewTarget, whenRefused } from './service.ts';
