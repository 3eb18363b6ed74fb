import type { FormInstance } from 'antd';
import { HttpError } from './http.ts';

/**
 * Puts the server's field errors next to their fields (ARCHITECTURE §8). A field inside a list comes as a dotted
 * path (`navList.0.url`), which antd addresses as `['navList', 0, 'url']`.
 */
export function showFieldErrors(form: FormInstance, err: unknown): void {
  if (!(err instanceof HttpError) || !err.fields) return;
  form.setFields(
    Object.entries(err.fields).map(([path, message]) => ({
      name: path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      errors: [message],
    })),
  );
}

/** An antd form rule from a shared validator that returns a message or null. */
export function ruleFrom(check: (value: string) => string | null) {
  return {
    validator: async (_: unknown, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      const msg = check(String(value));
      if (msg) throw new Error(msg);
    },
  };
}

/** "Type it again" rule: the value must equal the one in `field`. */
export function sameAsRule(field: string) {
  return ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
    validator: async (_: unknown, value: unknown) => {
      if (value && value !== getFieldValue(field)) throw new Error('两次输入的密码不一致');
    },
  });
}

/** Select options from a code-to-text table (statuses, methods). */
export const textOptions = (texts: Record<number, string>) => Object.entries(texts).map(([value, label]) => ({ value: Number(value), label }));
