import { describe, expect, it } from 'vitest';
import {
  COMMON_PASSWORD_MESSAGE,
  PASSWORD_MESSAGE,
  WORD_DIGITS_PASSWORD_MESSAGE,
  changePasswordBody,
  checkPasswordStrength,
  registerBody,
  resetPasswordBody,
  usernameKey,
} from '../src/index.ts';
import { CONFUSABLE_PROTOTYPES } from '../src/confusables.ts';
import { usernameSkeleton } from '../src/skeleton.ts';

describe('usernameSkeleton', () => {
  it.each([
    ['аdmin', 'Cyrillic а'],
    ['admın', 'dotless ı'],
    ['ａｄｍｉｎ', 'full-width letters'],
    ['𝐚𝐝𝐦𝐢𝐧', 'mathematical bold letters'],
    ['ádmin', 'a combining acute accent'],
    ['ad\u200bmin', 'a zero-width space'],
    ['αdmin', 'Greek α'],
    ['Admin', 'another case'],
  ])('gives %s (%s) the skeleton of admin', (name) => {
    expect(usernameSkeleton(name)).toBe(usernameSkeleton('admin'));
  });

  it('follows UTS #39 for digits and letters: 0 and O, 1 and l and capital I, m and rn', () => {
    expect(usernameSkeleton('j0hn')).toBe(usernameSkeleton('john'));
    expect(usernameSkeleton('wi1l')).toBe(usernameSkeleton('will'));
    expect(usernameSkeleton('wiIl')).toBe(usernameSkeleton('will'));
    expect(usernameSkeleton('modern')).toBe(usernameSkeleton('rnodern'));
    expect(usernameSkeleton('MODERN')).toBe(usernameSkeleton('modern'));
  });

  it('folds look-alikes of other scripts: Cyrillic, Greek, Armenian and Cherokee', () => {
    expect(usernameSkeleton('раураl')).toBe('paypal');
    expect(usernameSkeleton('ΤΟΜ')).toBe(usernameSkeleton('TOM'));
    expect(usernameSkeleton('ցօօց')).toBe(usernameSkeleton('goog'));
    expect(usernameSkeleton('ᎪᏞᎬX')).toBe(usernameSkeleton('alex'));
  });

  it('keeps names apart that do not look alike', () => {
    const names = ['admin', 'admln', 'ivan', 'lvan', 'alice', 'alicia', '张三', '张叁', 'user_1', 'user-1', 'user.1'];
    expect(new Set(names.map(usernameSkeleton)).size).toBe(names.length);
  });

  it('maps every look-alike of the table to its prototype, and is stable', () => {
    for (const [prototype, lookalikes] of Object.entries(CONFUSABLE_PROTOTYPES)) {
      for (const c of lookalikes) {
        const s = usernameSkeleton(c);
        expect(s, `${c} (U+${c.codePointAt(0)!.toString(16)})`).toBe(usernameSkeleton(prototype));
        expect(usernameSkeleton(s)).toBe(s);
      }
    }
  });

  it('agrees with usernameKey: one account is one skeleton', () => {
    for (const name of ['Admin', 'ADMIN', 'ａｄｍｉｎ', ' admin ']) expect(usernameKey(name)).toBe('admin');
    for (const name of ['ａｄｍｉｎ', ' admin ', 'Admin']) expect(usernameSkeleton(name)).toBe(usernameSkeleton('admin'));
  });
});

describe('checkPasswordStrength', () => {
  it.each(['123456', '5201314', 'woaini1314', 'qq123456', 'a123456', '1qaz2wsx', 'P@ssw0rd', 'Passw0rd', 'Password123', 'QWERTY1234', 'Admin@123', '1q2w3e4r'])(
    'refuses the common %s',
    (pw) => {
      expect(checkPasswordStrength(pw)).toBe(COMMON_PASSWORD_MESSAGE);
    },
  );

  it.each(['zhangsan2024', 'Admin12345', 'liuxiaoming88', 'Correcthorse7', '2024zhangsan', 'Secret123'])('refuses %s, a word plus digits', (pw) => {
    expect([WORD_DIGITS_PASSWORD_MESSAGE, COMMON_PASSWORD_MESSAGE]).toContain(checkPasswordStrength(pw));
  });

  it('still refuses the short and the unmixed with the old message', () => {
    for (const pw of ['short1', 'onlyletters', '98765432109', 'x'.repeat(60) + '12345']) expect(checkPasswordStrength(pw)).toBe(PASSWORD_MESSAGE);
  });

  it.each(['Passw0rd1', 'Tr0ub4dor&3', 'zhang-san-2024', 'li4xiao9ming', 'Secr3tKey9', 'NewPa55-word'])('accepts %s', (pw) => {
    expect(checkPasswordStrength(pw)).toBeNull();
  });

  it('is the rule of every schema that sets a password, with its own message', () => {
    const field = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
      r.error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(field(registerBody.safeParse({ username: 'alice', password: 'zhangsan2024' }))).toEqual([['password', WORD_DIGITS_PASSWORD_MESSAGE]]);
    expect(field(changePasswordBody.safeParse({ oldPassword: 'x', newPassword: 'qq123456' }))).toEqual([['newPassword', COMMON_PASSWORD_MESSAGE]]);
    expect(field(resetPasswordBody.safeParse({ password: 'weak' }))).toEqual([['password', PASSWORD_MESSAGE]]);
    expect(registerBody.safeParse({ username: 'alice', password: 'Tr0ub4dor&3' }).success).toBe(true);
  });
});
