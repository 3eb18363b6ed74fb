import { z } from 'zod';
import { pageQuery } from './common.ts';
import { isValidUrl } from '../validation/index.ts';
import { fileUri, isoTime, requiredText, sort, text } from './fields.ts';

export { isoTime };

// ---- Competition types -------------------------------------------------------------------------------------

export const typeBody = z.object({ name: requiredText(50, '类型名称'), sort: z.coerce.number().int().min(0).max(9999).default(0) });
export type TypeBody = z.infer<typeof typeBody>;
export const competitionTypeSchema = z.object({ id: z.number().int(), name: z.string(), sort: z.number().int() });
export type CompetitionType = z.infer<typeof competitionTypeSchema>;

// ---- Brands ------------------------------------------------------------------------------------------------

export const brandBody = z.strictObject({
  name: requiredText(100, '品牌名称'),
  shortName: requiredText(20, '品牌简称'),
  logo: fileUri,
  sort,
  description: text(500, '品牌介绍'),
});
export type BrandBody = z.infer<typeof brandBody>;
export const brandSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  shortName: z.string(),
  logo: z.string().nullable(),
  sort: z.number().int(),
  recommend: z.boolean(),
  description: z.string().nullable(),
  /** Its competitions online. */
  competitionNum: z.number().int(),
});
export type Brand = z.infer<typeof brandSchema>;
/** `PUT /api/competition/brand/recommend/{id}`: whether the brand is recommended now. */
export const brandRecommendSchema = z.object({ recommend: z.boolean() });
export const brandListQuery = pageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  recommend: z
    .enum(['0', '1'])
    .transform((v) => v === '1')
    .optional(),
});
export type BrandListQuery = z.infer<typeof brandListQuery>;

export const navLink = z.strictObject({
  name: requiredText(30, '链接名称'),
  url: z
    .string({ error: '请输入链接地址' })
    .trim()
    .max(500)
    .refine((v) => v.startsWith('/') || isValidUrl(v), '链接须为站内路径或http(s)地址'),
  type: z.union([z.literal(0), z.literal(1)], { error: '打开方式须为0（当前窗口）或1（新窗口）' }).default(0),
});
export type NavLink = z.infer<typeof navLink>;
const links = (max: number) => z.array(navLink).max(max, `最多${max}个链接`).default([]);

export const brandNavBody = z.strictObject({
  brandId: z.number({ error: '请选择品牌' }).int().positive(),
  navList: z
    .array(navLink.extend({ children: links(20) }))
    .max(12, '最多12个导航链接')
    .default([]),
  sublinksList: links(30),
  frendlinksList: links(30),
  topLogoPath: fileUri,
  bottomLogoPath: fileUri,
  rcodePath: fileUri,
  copyright: text(200, '版权信息'),
});
export type BrandNavBody = z.infer<typeof brandNavBody>;
/** A brand's navigation as replies carry it. */
const navLinkSchema = z.object({ name: z.string(), url: z.string(), type: z.union([z.literal(0), z.literal(1)]) });
export const brandNavSchema = z.object({
  id: z.number().int(),
  brandId: z.number().int(),
  navList: z.array(navLinkSchema.extend({ children: z.array(navLinkSchema) })),
  sublinksList: z.array(navLinkSchema),
  frendlinksList: z.array(navLinkSchema),
  topLogoPath: z.string().nullable(),
  bottomLogoPath: z.string().nullable(),
  rcodePath: z.string().nullable(),
  copyright: z.string().nullable(),
});
export type BrandNav = z.infer<typeof brandNavSchema>;
