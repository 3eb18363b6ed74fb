import { COMMON_PASSWORDS } from './commonPasswords.ts';

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

/** The rule as the password forms state it beside the field. */
export const PASSWORD_HINT = '密码须为8至64位，同时包含字母和数字；不能是常见密码，也不能只是一个单词加一串数字';
export const COMMON_PASSWORD_MESSAGE = '该密码过于常见，很容易被猜中，请换一个';
export const WORD_DIGITS_PASSWORD_MESSAGE = '密码不能只是一个单词或拼音加一串数字（如 password123、zhangsan2024），请加入符号或把字母和数字穿插起来';

/**
 * Why a new password is refused, or null. Besides length and the mix of letters and digits, a password guessed first
 * by every cracking list is refused: one of the commonest, or a word followed (or preceded) by digits only.
 */
export function checkPasswordStrength(password: string): string | null {
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return COMMON_PASSWORD_MESSAGE;
  if (password.length < 8 || password.length > 64) return PASSWORD_MESSAGE;
  if (!/[A-Za-z]/.test(password) || !/\d/.test(password)) return PASSWORD_MESSAGE;
  if (/^(?:[A-Za-z]+\d+|\d+[A-Za-z]+)$/.test(password)) return WORD_DIGITS_PASSWORD_MESSAGE;
  return null;
}

export const EMAIL_MESSAGE = '邮箱格式不正确';
export function isValidEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}
