/** Rules for login names and passwords, shared by the register form and the server. */

export const USERNAME_MESSAGE = '用户名须为3至32位的字母、数字、汉字、下划线、点或短横线';
export const PASSWORD_MESSAGE = '密码须为8至64位，且同时包含字母和数字';

/**
 * The key under which usernames are compared: width-folded (NFKC turns full-width `Ａ` into `A`),
 * trimmed and lower-cased, so `Admin`, `admin ` and `ａｄｍｉｎ` are the same account.
 */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').trim().toLowerCase();
}

export function isValidUsername(username: string): boolean {
  return /^[\p{L}\p{N}_.-]{3,32}$/u.test(username.normalize('NFKC').trim());
}

export function checkPasswordStrength(password: string): string | null {
  if (password.length < 8 || password.length > 64) return PASSWORD_MESSAGE;
  if (!/[A-Za-z]/.test(password) || !/\d/.test(password)) return PASSWORD_MESSAGE;
  return null;
}

export const EMAIL_MESSAGE = '邮箱格式不正确';
export function isValidEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}
