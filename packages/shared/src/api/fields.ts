import { z } from 'zod';
import { isValidUrl } from '../validation/index.ts';

/** Field builders every request schema uses, so one rule means one message everywhere. */

/** Trimmed text; an empty string counts as absent. */
export const text = (max: number, label: string) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim() || null : v), z.string().max(max, `${label}不能超过${max}个字符`).nullable().optional());
export const requiredText = (max: number, label: string) =>
  z
    .string({ error: `请输入${label}` })
    .trim()
    .min(1, `请输入${label}`)
    .max(max, `${label}不能超过${max}个字符`);
export const fileUri = z
  .string()
  .max(200)
  .regex(/^[a-z0-9-]+\/[0-9a-f-]+$/, '文件无效，请重新上传')
  .nullable()
  .optional();
export const url = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() || null : v),
  z.string().max(500).refine(isValidUrl, '链接格式不正确，须以http://、https://或ftp://开头').nullable().optional(),
);
export const sort = z.number({ error: '排序须为整数' }).int('排序须为整数').min(0, '排序不能小于0').max(9999, '排序不能大于9999').default(0);
/** A moment with its offset, stored as UTC. */
export const isoTime = z.iso.datetime({ offset: true, error: '时间格式不正确' }).transform((v) => new Date(v).toISOString());
export const html = (label: string) => z.preprocess((v) => (v === '' ? null : v), z.string().max(200_000, `${label}内容过长`).nullable().optional());

export const requiredFileUri = (message: string) =>
  z
    .string({ error: message })
    .min(1, message)
    .max(200)
    .regex(/^[a-z0-9-]+\/[0-9a-f-]+$/, '文件无效，请重新上传');
