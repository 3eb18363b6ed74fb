/**
 * Users: accounts and their profiles. What other modules may use: creating an account (sign-up and single sign-on), the
 * clash check on user names, a user's profile for /api/user/info and the login's reply, storing a new password hash
 * (a user's own change of password) and telling the account of it, the dashboard's count, signing in by an SMS code (sending it, taking it), and by WeChat (signing in, binding).
 */
export { countUsers, findUserInfo, insertUser, setPasswordHash, userByVerifiedPhone, usernameClash } from './repo.ts';
export { createAccount } from './service.ts';
export { tellPasswordChanged } from './account-notices.ts';
export { phoneLogin, sendLoginCode, sendResetCode } from './phone-codes.ts';
export { bindWechat, wechatLogin, type WechatIdentity } from './wechat-accounts.ts';
