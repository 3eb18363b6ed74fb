/** Sign-in, sessions and single sign-on. What other modules may use: the number of live sessions (the dashboard). */
export { countLiveSessions } from './repo.ts';
