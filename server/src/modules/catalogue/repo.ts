import type { Brand, BrandListQuery, BrandNav, CompetitionType } from '@contest/shared';
import type { Db } from '../../db/database.ts';
import type { BrandNavsTable, BrandsTable } from '../../db/schema.ts';
import { sql, type Insertable, type Updateable } from 'kysely';
import { contains } from '../../db/like.ts';

export async function listTypes(db: Db, page?: { page: number; limit: number }) {
  let q = db.selectFrom('competitionTypes').select(['id', 'name', 'sort']).orderBy('sort').orderBy('id');
  if (page) q = q.limit(page.limit).offset((page.page - 1) * page.limit);
  return (await q.execute()) as CompetitionType[];
}

export async function countTypes(db: Db) {
  const row = await db
    .selectFrom('competitionTypes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const findType = (db: Db, id: number) => db.selectFrom('competitionTypes').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertType(db: Db, v: { name: string; sort: number; createdAt: string }) {
  return (await db.insertInto('competitionTypes').values(v).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateType(db: Db, id: number, v: { name: string; sort: number }) {
  await db.updateTable('competitionTypes').set(v).where('id', '=', id).execute();
}

export async function deleteType(db: Db, id: number) {
  await db.deleteFrom('competitionTypes').where('id', '=', id).execute();
}

export async function competitionsUsing(db: Db, column: 'typeId' | 'brandId', id: number) {
  const row = await db
    .selectFrom('competitions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(column, '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const fromBrands = (db: Db) => db.selectFrom('brands');

/** Brand columns with the number of online competitions, on an already filtered selection. */
function withBrandColumns(base: ReturnType<typeof fromBrands>) {
  return base.select((eb) => [
    'brands.id',
    'brands.name',
    'brands.shortName',
    'brands.logo',
    'brands.sort',
    'brands.recommend',
    'brands.description',
    eb
      .selectFrom('competitions')
      .select(eb.fn.countAll<number>().as('n'))
      .whereRef('competitions.brandId', '=', 'brands.id')
      .where('competitions.auditStatus', '=', 3)
      .as('competitionNum'),
  ]);
}

type BrandRow = Omit<Brand, 'recommend' | 'competitionNum'> & { recommend: number; competitionNum: number | null };
const toBrand = (r: BrandRow): Brand => ({ ...r, recommend: r.recommend === 1, competitionNum: Number(r.competitionNum ?? 0) });

export async function listBrands(db: Db, q: BrandListQuery) {
  let base = fromBrands(db);
  if (q.keyword) {
    const like = contains(q.keyword);
    base = base.where((eb) => eb.or([eb(sql`lower(brands.name)`, 'like', like), eb(sql`lower(brands.short_name)`, 'like', like)]));
  }
  if (q.recommend !== undefined) base = base.where('brands.recommend', '=', q.recommend ? 1 : 0);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const list = await withBrandColumns(base)
    .orderBy('brands.sort')
    .orderBy('brands.id')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  return { list: list.map(toBrand), total: Number(n) };
}

export async function findBrand(db: Db, id: number): Promise<Brand | undefined> {
  const row = await withBrandColumns(fromBrands(db).where('brands.id', '=', id)).executeTakeFirst();
  return row ? toBrand(row) : undefined;
}

export async function insertBrand(db: Db, v: Insertable<BrandsTable>) {
  return (await db.insertInto('brands').values(v).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateBrand(db: Db, id: number, v: Updateable<BrandsTable>) {
  await db.updateTable('brands').set(v).where('id', '=', id).execute();
}

export async function deleteBrand(db: Db, id: number) {
  await db.deleteFrom('brands').where('id', '=', id).execute();
}

export async function findNavByBrand(db: Db, brandId: number): Promise<BrandNav | undefined> {
  const row = await db.selectFrom('brandNavs').selectAll().where('brandId', '=', brandId).executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    brandId: row.brandId,
    navList: JSON.parse(row.navList),
    sublinksList: JSON.parse(row.sublinksList),
    frendlinksList: JSON.parse(row.frendlinksList),
    topLogoPath: row.topLogoPath,
    bottomLogoPath: row.bottomLogoPath,
    rcodePath: row.rcodePath,
    copyright: row.copyright,
  };
}

export const findNav = (db: Db, id: number) => db.selectFrom('brandNavs').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertNav(db: Db, v: Insertable<BrandNavsTable>) {
  return (await db.insertInto('brandNavs').values(v).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateNav(db: Db, id: number, v: Updateable<BrandNavsTable>) {
  await db.updateTable('brandNavs').set(v).where('id', '=', id).execute();
}
