import type { BrandBody, BrandListQuery, BrandNavBody, PageQuery, TypeBody } from '@contest/shared';
import type { Ctx } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import { assertOwnImage } from '../files/index.ts';
import * as repo from './repo.ts';

function duplicate(err: unknown, field: string, message: string): never {
  if (isUniqueViolation(err)) throw new AppError(409, message, { [field]: message });
  throw err;
}

// ---- types

export const listTypes = (ctx: Ctx) => repo.listTypes(ctx.db);
export async function pageTypes(ctx: Ctx, q: PageQuery) {
  const [list, total] = await Promise.all([repo.listTypes(ctx.db, q), repo.countTypes(ctx.db)]);
  return { list, total };
}

export async function createType(ctx: Ctx, body: TypeBody) {
  try {
    const id = await repo.insertType(ctx.db, { ...body, createdAt: ctx.clock.now().toISOString() });
    await writeAudit(ctx, { action: 'type.create', entity: 'competitionType', entityId: id, after: body });
    return { id };
  } catch (err) {
    duplicate(err, 'name', '竞赛类型名称已存在');
  }
}

async function existingType(ctx: Ctx, id: number) {
  const type = await repo.findType(ctx.db, id);
  if (!type) throw notFound('竞赛类型不存在');
  return type;
}

export async function updateType(ctx: Ctx, id: number, body: TypeBody) {
  const before = await existingType(ctx, id);
  try {
    await repo.updateType(ctx.db, id, body);
  } catch (err) {
    duplicate(err, 'name', '竞赛类型名称已存在');
  }
  await writeAudit(ctx, { action: 'type.update', entity: 'competitionType', entityId: id, before, after: body });
}

export async function deleteType(ctx: Ctx, id: number) {
  const before = await existingType(ctx, id);
  const used = await repo.competitionsUsing(ctx.db, 'typeId', id);
  if (used > 0) throw conflict(`该类型下还有${used}个竞赛，不能删除`);
  await repo.deleteType(ctx.db, id);
  await writeAudit(ctx, { action: 'type.delete', entity: 'competitionType', entityId: id, before });
}

// ---- brands

export const listBrands = (ctx: Ctx, q: BrandListQuery) => repo.listBrands(ctx.db, q);

export async function getBrand(ctx: Ctx, id: number) {
  const brand = await repo.findBrand(ctx.db, id);
  if (!brand) throw notFound('品牌不存在');
  return brand;
}

export async function createBrand(ctx: Ctx, body: BrandBody) {
  await assertOwnImage(ctx, 'logo', body.logo);
  const now = ctx.clock.now().toISOString();
  try {
    const id = await repo.insertBrand(ctx.db, {
      name: body.name,
      shortName: body.shortName,
      logo: body.logo ?? null,
      sort: body.sort,
      description: body.description ?? null,
      recommend: 0,
      createdAt: now,
      updatedAt: now,
    });
    await writeAudit(ctx, { action: 'brand.create', entity: 'brand', entityId: id, after: body });
    return { id };
  } catch (err) {
    duplicate(err, 'name', '品牌名称已存在');
  }
}

export async function updateBrand(ctx: Ctx, id: number, body: BrandBody) {
  const before = await getBrand(ctx, id);
  await assertOwnImage(ctx, 'logo', body.logo, before.logo);
  try {
    await repo.updateBrand(ctx.db, id, {
      name: body.name,
      shortName: body.shortName,
      logo: body.logo ?? null,
      sort: body.sort,
      description: body.description ?? null,
      updatedAt: ctx.clock.now().toISOString(),
    });
  } catch (err) {
    duplicate(err, 'name', '品牌名称已存在');
  }
  await writeAudit(ctx, { action: 'brand.update', entity: 'brand', entityId: id, before, after: body });
}

export async function setRecommend(ctx: Ctx, id: number, recommend: boolean | undefined) {
  const before = await getBrand(ctx, id);
  const next = recommend ?? !before.recommend;
  await repo.updateBrand(ctx.db, id, { recommend: next ? 1 : 0, updatedAt: ctx.clock.now().toISOString() });
  await writeAudit(ctx, { action: 'brand.recommend', entity: 'brand', entityId: id, before: { recommend: before.recommend }, after: { recommend: next } });
  return { recommend: next };
}

export async function deleteBrand(ctx: Ctx, id: number) {
  const before = await getBrand(ctx, id);
  const used = await repo.competitionsUsing(ctx.db, 'brandId', id);
  if (used > 0) throw conflict(`该品牌下还有${used}个竞赛，不能删除；请先删除或转移这些竞赛`);
  await repo.deleteBrand(ctx.db, id);
  await writeAudit(ctx, { action: 'brand.delete', entity: 'brand', entityId: id, before });
}

// ---- brand navigation

function navValues(body: BrandNavBody, now: string) {
  return {
    navList: JSON.stringify(body.navList),
    sublinksList: JSON.stringify(body.sublinksList),
    frendlinksList: JSON.stringify(body.frendlinksList),
    topLogoPath: body.topLogoPath ?? null,
    bottomLogoPath: body.bottomLogoPath ?? null,
    rcodePath: body.rcodePath ?? null,
    copyright: body.copyright ?? null,
    updatedAt: now,
  };
}

async function assertNavImages(ctx: Ctx, body: BrandNavBody, before?: { topLogoPath: string | null; bottomLogoPath: string | null; rcodePath: string | null }) {
  await assertOwnImage(ctx, 'topLogoPath', body.topLogoPath, before?.topLogoPath);
  await assertOwnImage(ctx, 'bottomLogoPath', body.bottomLogoPath, before?.bottomLogoPath);
  await assertOwnImage(ctx, 'rcodePath', body.rcodePath, before?.rcodePath);
}

export async function createNav(ctx: Ctx, body: BrandNavBody) {
  await getBrand(ctx, body.brandId);
  await assertNavImages(ctx, body);
  try {
    const id = await repo.insertNav(ctx.db, { brandId: body.brandId, ...navValues(body, ctx.clock.now().toISOString()) });
    await writeAudit(ctx, { action: 'brandNav.create', entity: 'brandNav', entityId: id, after: body });
    return { id };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('该品牌已有导航，请直接修改');
    throw err;
  }
}

export async function updateNav(ctx: Ctx, id: number, body: BrandNavBody) {
  const before = await repo.findNav(ctx.db, id);
  if (!before) throw notFound('品牌导航不存在');
  if (before.brandId !== body.brandId) throw conflict('不能把导航改到另一个品牌');
  await assertNavImages(ctx, body, before);
  await repo.updateNav(ctx.db, id, navValues(body, ctx.clock.now().toISOString()));
  await writeAudit(ctx, { action: 'brandNav.update', entity: 'brandNav', entityId: id, before, after: body });
}

export const navByBrand = (ctx: Ctx, brandId: number) => repo.findNavByBrand(ctx.db, brandId);
