import {
  SCHOOL_CODE,
  schoolKindOf,
  schoolNameKey,
  type School,
  type SchoolBody,
  type SchoolImportReport,
  type SchoolKind,
  type SchoolPageQuery,
} from '@contest/shared';
import { pinyin } from 'pinyin-pro';
import type { Readable } from 'node:stream';
import { cellText, readSheet } from '../../http/xlsx-read.ts';
import type { AuthedCtx, Ctx } from '../../context.ts';
import { keysetBatches } from '../../db/batches.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import * as repo from './repo.ts';

/**
 * Schools as records (issue 36, item 1). The platform keeps one list; its administrators import the Ministry of
 * Education's published list (an .xlsx of 学校名称, 学校标识码, 主管部门, 所在地, 办学层次) and edit it. A school is
 * matched by its 学校标识码 where known, else by its name normalised; its pinyin initials are kept for the picker.
 * Importing links the profiles whose free-text school is the same name after normalisation.
 */

/** The pinyin initials of a name, lower-case (北京大学 → bjdx; 重庆 is cq): what people type into a picker. */
export const initialsOf = (name: string) => pinyin(name, { pattern: 'first', toneType: 'none', separator: '' }).toLowerCase().replace(/\s+/g, '').slice(0, 100);

const toSchool = (r: NonNullable<Awaited<ReturnType<typeof repo.findSchool>>>): School => ({
  id: r.id,
  name: r.name,
  code: r.code,
  province: r.province,
  department: r.department,
  kind: r.kind as SchoolKind,
  initials: r.initials,
  users: Number(r.users ?? 0),
});

export async function page(ctx: Ctx, q: SchoolPageQuery) {
  const { rows, total } = await repo.schoolPage(ctx.db, { ...q, limit: q.limit, offset: (q.page - 1) * q.limit });
  return { list: rows.map(toSchool), total, page: q.page, limit: q.limit };
}

export const options = (ctx: Ctx, keyword: string) =>
  repo.schoolOptions(ctx.db, keyword, 20).then((rows) => rows.map((r) => ({ ...r, kind: r.kind as SchoolKind })));

const columns = (body: SchoolBody) => ({
  name: body.name,
  nameKey: schoolNameKey(body.name),
  code: body.code || null,
  province: body.province || null,
  department: body.department || null,
  kind: body.kind,
  initials: initialsOf(body.name),
});

/** Which field a unique index refused: the name (normalised) or the code. */
async function clash(db: Db, body: SchoolBody, except?: number) {
  const byName = await repo.schoolByKey(db, schoolNameKey(body.name));
  if (byName && byName.id !== except) return badRequest(`学校“${byName.name}”已在名单中`, { name: '名单中已有同名学校' });
  const byCode = body.code ? await repo.schoolByCode(db, body.code) : undefined;
  if (byCode && byCode.id !== except) return badRequest(`学校标识码已属于“${byCode.name}”`, { code: `该标识码已属于“${byCode.name}”` });
  return null;
}

export async function create(ctx: AuthedCtx, body: SchoolBody) {
  const refused = await clash(ctx.db, body);
  if (refused) throw refused;
  const now = ctx.clock.now().toISOString();
  try {
    const id = await repo.insertSchool(ctx.db, { ...columns(body), createdAt: now, updatedAt: now });
    await writeAudit(ctx, { action: 'school.create', entity: 'school', entityId: id, after: body });
    return { id };
  } catch (err) {
    if (isUniqueViolation(err)) throw (await clash(ctx.db, body)) ?? conflict('学校已在名单中');
    throw err;
  }
}

export async function update(ctx: AuthedCtx, id: number, body: SchoolBody) {
  const before = await repo.findSchool(ctx.db, id);
  if (!before) throw notFound('学校不存在');
  const refused = await clash(ctx.db, body, id);
  if (refused) throw refused;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.updateSchool(trx, id, { ...columns(body), updatedAt: ctx.clock.now().toISOString() });
      // The profiles that chose it show its new name.
      if (before.name !== body.name) await repo.renameInProfiles(trx, id, body.name);
      await writeAudit(ctx, { action: 'school.update', entity: 'school', entityId: id, before: toSchool(before), after: body }, trx);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw (await clash(ctx.db, body, id)) ?? conflict('学校已在名单中');
    throw err;
  }
}

export async function remove(ctx: AuthedCtx, id: number) {
  const before = await repo.findSchool(ctx.db, id);
  if (!before) throw notFound('学校不存在');
  const users = Number(before.users ?? 0);
  if (users > 0) throw conflict(`已有${users}个账号选择了“${before.name}”，不能删除；可以修改它的名称或信息`);
  await repo.deleteSchool(ctx.db, id);
  await writeAudit(ctx, { action: 'school.delete', entity: 'school', entityId: id, before: toSchool(before) });
}

// ---- importing the Ministry's list ---------------------------------------------------------------------------------------

export const IMPORT_MAX_ROWS = 10_000;
/** The headers of the Ministry's list, and the words schools' own sheets use for them. */
const HEADERS: Record<'name' | 'code' | 'department' | 'province' | 'level', RegExp> = {
  name: /^(学校名称|学校|名称|院校名称)$/,
  code: /^(学校标识码|标识码|学校代码)$/,
  department: /^(主管部门)$/,
  province: /^(所在地|所在省份|省份|地区)$/,
  level: /^(办学层次|层次|类型)$/,
};

/**
 * Imports an .xlsx list of schools (the Ministry's shape; a title row above the headers is skipped): each row is added,
 * or updates the school with its code (or, without one, its name). A row that cannot be taken is reported with its
 * row number and why, and the others are saved. Then the profiles whose free-text school is one of the names are linked.
 */
export async function importList(ctx: AuthedCtx, content: Readable, maxBytes: number): Promise<SchoolImportReport> {
  const sheet = await readSheet(content, maxBytes);
  let headerRow = 0;
  const at: Partial<Record<keyof typeof HEADERS, number>> = {};
  for (let r = 1; r <= Math.min(sheet.rowCount, 10) && !headerRow; r++) {
    sheet.getRow(r).eachCell((cell, col) => {
      const t = cellText(cell.value).replace(/\s+/g, '');
      for (const [field, re] of Object.entries(HEADERS) as [keyof typeof HEADERS, RegExp][]) if (re.test(t) && !at[field]) at[field] = col;
    });
    if (at.name) headerRow = r;
  }
  if (!headerRow)
    throw badRequest('没有找到“学校名称”列：请使用教育部名单的格式（学校名称、学校标识码、主管部门、所在地、办学层次）', { file: '没有找到“学校名称”列' });
  if (sheet.rowCount - headerRow > IMPORT_MAX_ROWS) throw badRequest(`一次最多导入${IMPORT_MAX_ROWS}所学校`, { file: `一次最多导入${IMPORT_MAX_ROWS}所学校` });

  const report: SchoolImportReport = { added: 0, updated: 0, unchanged: 0, linked: 0, errors: [] };
  const seen = new Map<string, number>();
  const rows: { row: number; body: SchoolBody }[] = [];
  for (let r = headerRow + 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const get = (f: keyof typeof HEADERS) => (at[f] ? cellText(row.getCell(at[f]!).value).trim() : '');
    const name = get('name');
    if (!name && !get('code')) continue;
    const fail = (message: string) => report.errors.push({ row: r, message });
    if (name.length < 2 || name.length > 100) {
      fail(name ? '学校名称应为2至100个字' : '缺少学校名称');
      continue;
    }
    const code = get('code');
    if (code && !SCHOOL_CODE.test(code)) {
      fail(`学校标识码“${code}”应为10位数字`);
      continue;
    }
    const key = code || schoolNameKey(name);
    if (seen.has(key)) {
      fail(`与第${seen.get(key)}行重复`);
      continue;
    }
    seen.set(key, r);
    const level = get('level');
    const kind = schoolKindOf(level) ?? schoolKindOf(name) ?? 'other';
    rows.push({ row: r, body: { name, code: code || null, province: get('province') || null, department: get('department') || null, kind } });
  }

  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    for (const { row, body } of rows) {
      const existing = (body.code ? await repo.schoolByCode(trx, body.code) : undefined) ?? (await repo.schoolByKey(trx, schoolNameKey(body.name)));
      const values = columns(body);
      if (!existing) {
        await repo.insertSchool(trx, { ...values, createdAt: now, updatedAt: now });
        report.added++;
        continue;
      }
      // A name another school holds cannot be given to this one.
      const named = await repo.schoolByKey(trx, values.nameKey);
      if (named && named.id !== existing.id) {
        report.errors.push({ row, message: `名称与名单中的“${named.name}”相同，但标识码不同` });
        continue;
      }
      const same = (['name', 'code', 'province', 'department', 'kind'] as const).every((k) => (existing[k] ?? null) === (values[k] ?? null));
      if (same) {
        report.unchanged++;
        continue;
      }
      await repo.updateSchool(trx, existing.id, { ...values, updatedAt: now });
      if (existing.name !== values.name) await repo.renameInProfiles(trx, existing.id, values.name);
      report.updated++;
    }
    report.linked = await linkFreeText(trx);
    await writeAudit(ctx, { action: 'school.import', entity: 'school', entityId: null, after: { ...report, errors: report.errors.length } }, trx);
  });
  return report;
}

/**
 * Links every profile whose free-text school equals a record's name after normalisation; answers how many. Profiles are
 * read a batch at a time by id and linked by id (the free-text column has no index: one update per name would read
 * every account once for each school).
 */
export async function linkFreeText(db: Db) {
  const byKey = new Map((await repo.schoolKeys(db)).map((s) => [s.nameKey, s.id]));
  let linked = 0;
  for await (const batch of keysetBatches(
    (after: number | undefined, limit) => repo.unlinkedProfiles(db, after, limit),
    (r) => r.id,
    LINK_BATCH,
  )) {
    const bySchool = new Map<number, number[]>();
    for (const r of batch) {
      const id = r.organization ? byKey.get(schoolNameKey(r.organization)) : undefined;
      if (id !== undefined) bySchool.set(id, [...(bySchool.get(id) ?? []), r.id]);
    }
    for (const [schoolId, userIds] of bySchool) linked += await repo.linkProfiles(db, userIds, schoolId);
  }
  return linked;
}
const LINK_BATCH = 500;

// ---- a profile's school ---------------------------------------------------------------------------------------------------

/**
 * What a profile's school becomes: the record picked (`schoolId`; its name is the text), or a school not in the list
 * (`organization` alone), linked to the record whose name it equals after normalisation.
 */
export async function profileSchool(db: Db, schoolId: number | null | undefined, organization: string | null | undefined) {
  if (schoolId) {
    const school = await repo.findSchool(db, schoolId);
    if (!school) throw badRequest('请从名单中选择学校', { schoolId: '请从名单中选择学校' });
    return { schoolId: school.id, organization: school.name };
  }
  if (!organization) return { schoolId: null, organization: organization ?? null };
  const match = await repo.schoolByKey(db, schoolNameKey(organization));
  return match ? { schoolId: match.id, organization: match.name } : { schoolId: null, organization };
}

/** The record a school's name (as written, normalised) stands for, if the list has it. */
export const listedSchool = (db: Db, name: string) => repo.schoolByKey(db, schoolNameKey(name));
