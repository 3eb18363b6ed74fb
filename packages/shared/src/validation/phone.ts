/** Phone numbers accepted at registration: Hong Kong, Taiwan and mainland China mobiles. */

const PHONE_PATTERNS: readonly RegExp[] = [
  /^(?:\+852)?[5689]\d{7}$/, // Hong Kong
  /^(?:\+886)?09\d{8}$/, // Taiwan
  /^(?:\+86)?1[3-9]\d{9}$/, // mainland
];

export function isValidPhone(value: string): boolean {
  return PHONE_PATTERNS.some((pattern) => pattern.test(value));
}

const PHONE_PREFIXES = ['+852', '+886', '+86'] as const;

/** `13800138000` -> `138****8000`; a leading country prefix is kept as is. */
export function maskPhone(value: string): string {
  const trimmed = value.trim();
  const prefix = PHONE_PREFIXES.find((p) => trimmed.startsWith(p)) ?? '';
  const national = trimmed.slice(prefix.length);
  // With fewer than 8 characters the kept 3 + 4 would reveal the whole number.
  if (national.length < 8) return prefix + '*'.repeat(national.length);
  return prefix + national.slice(0, 3) + '*'.repeat(national.length - 7) + national.slice(-4);
}

/**
 * A phone number as one account verifies it, so that one number is one key however it was typed: trimmed, and a
 * mainland number without its +86 (Hong Kong and Taiwan numbers keep theirs).
 */
export function normalPhone(value: string): string {
  const p = value.trim().replace(/[\s-]/g, '');
  return /^\+861[3-9]\d{9}$/.test(p) ? p.slice(3) : p;
}
