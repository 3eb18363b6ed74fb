/**
 * Sign-in, sessions and single sign-on. What other modules may use: the number of live sessions (the dashboard), and
 * for an administrator's password reset, hashing a password, storing it and ending the user's sessions.
 */
export { countLiveSessions, deleteUserSessions, setPasswordHash } from './repo.ts';
export { hashPassword } from './passwords.ts';
export { createAccount } from './service.ts';
