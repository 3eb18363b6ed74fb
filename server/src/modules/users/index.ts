/**
 * Users: accounts and their profiles. What other modules may use: creating an account (sign-up and single sign-on), the
 * clash check on user names, a user's profile for /api/user/info and the login's reply, storing a new password hash
 * (a user's own change of password), the dashboard's count, and signing in by an SMS code (sending it, taking it).
 */
export { countUsers, findUserInfo, insertUser, setPasswordHash, usernameClash } from './repo.ts';
export { createAccount } from './service.ts';
export { phoneLogin, sendLoginCode, sendResetCode } from './phone-codes.ts';
