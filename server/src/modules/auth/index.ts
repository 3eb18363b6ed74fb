/**
 * Sign-in, sessions and single sign-on. What other modules may use: the number of live sessions (the dashboard), and
 * the actor of a presented session or token (the request's authentication, wired in app.ts). Accounts themselves are
 * the users module's: auth creates them and stores passwords through its index, never the other way round.
 */
export { countLiveSessions } from './repo.ts';
export { resolveActor } from './service.ts';
