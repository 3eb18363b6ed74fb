/**
 * Users: accounts and their profiles. What other modules may use: creating an account (sign-up and single sign-on), the
 * clash check on user names, a user's profile for /api/user/info, and the dashboard's count.
 */
export { countUsers, findUserInfo, insertUser, usernameClash } from './repo.ts';
