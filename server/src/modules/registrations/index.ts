/**
 * Registrations: a team's application to a competition and its review flow. What other modules may use: the rows teams
 * write when they register or change, and a team's registration.
 */
export { findRegisterOfTeam, insertFlow, insertRegister, transition } from './repo.ts';
