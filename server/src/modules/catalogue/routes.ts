import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  brandBody,
  brandListQuery,
  brandNavBody,
  brandNavSchema,
  brandRecommendSchema,
  brandSchema,
  competitionTypeSchema,
  createdIdSchema,
  idParam,
  pageOf,
  pageQuery,
  typeBody,
} from '@contest/shared';
import { z } from 'zod';
import { PUBLIC, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { noDataReply, ok, page, replies } from '../../http/reply.ts';
import * as service from './service.ts';

const TYPE_EDIT = perm(ACTION_CODES.typeEdit);
const BRAND_EDIT = perm(ACTION_CODES.brandEdit);

export function catalogueRoutes(app: App) {
  const tags = ['competition'];

  // Competition types. Spec §7: POST / takes its fields in the query string.
  app.post(
    '/api/competition/type/',
    { config: { rule: TYPE_EDIT }, schema: { tags, querystring: typeBody, response: replies(createdIdSchema) } },
    async (req) => ok(await service.createType(req.ctx, req.query), '竞赛类型已创建'),
  );
  app.put(
    '/api/competition/type/:id',
    { config: { rule: TYPE_EDIT }, schema: { tags, params: idParam, body: typeBody, response: noDataReply } },
    async (req) => {
      await service.updateType(req.ctx, req.params.id, req.body);
      return ok(null, '竞赛类型已保存');
    },
  );
  app.delete('/api/competition/type/:id', { config: { rule: TYPE_EDIT }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.deleteType(req.ctx, req.params.id);
    return ok(null, '竞赛类型已删除');
  });
  app.get('/api/competition/type/public/list', { config: { rule: PUBLIC }, schema: { tags, response: replies(z.array(competitionTypeSchema)) } }, async (req) =>
    ok(await service.listTypes(req.ctx)),
  );
  app.get(
    '/api/competition/type/public/page',
    { config: { rule: PUBLIC }, schema: { tags, querystring: pageQuery, response: replies(pageOf(competitionTypeSchema)) } },
    async (req) => {
      const { list, total } = await service.pageTypes(req.ctx, req.query);
      return page(list, total, req.query);
    },
  );

  // Brands.
  app.post('/api/competition/brand/', { config: { rule: BRAND_EDIT }, schema: { tags, body: brandBody, response: replies(createdIdSchema) } }, async (req) =>
    ok(await service.createBrand(req.ctx, req.body), '品牌已创建'),
  );
  app.put(
    '/api/competition/brand/:id',
    { config: { rule: BRAND_EDIT }, schema: { tags, params: idParam, body: brandBody, response: noDataReply } },
    async (req) => {
      await service.updateBrand(req.ctx, req.params.id, req.body);
      return ok(null, '品牌已保存');
    },
  );
  app.put(
    '/api/competition/brand/recommend/:id',
    {
      config: { rule: perm(ADMIN_MENU_CODES.brandRecommend) },
      schema: { tags, params: idParam, querystring: z.object({ recommend: z.enum(['0', '1']).optional() }), response: replies(brandRecommendSchema) },
    },
    async (req) => {
      const recommend = req.query.recommend === undefined ? undefined : req.query.recommend === '1';
      const result = await service.setRecommend(req.ctx, req.params.id, recommend);
      return ok(result, result.recommend ? '已设为推荐品牌' : '已取消推荐');
    },
  );
  app.delete('/api/competition/brand/:id', { config: { rule: BRAND_EDIT }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.deleteBrand(req.ctx, req.params.id);
    return ok(null, '品牌已删除');
  });
  app.get(
    '/api/competition/brand/list',
    { config: { rule: perm(ADMIN_MENU_CODES.brand) }, schema: { tags, querystring: brandListQuery, response: replies(pageOf(brandSchema)) } },
    async (req) => {
      const { list, total } = await service.listBrands(req.ctx, req.query);
      return page(list, total, req.query);
    },
  );
  app.get('/api/competition/brand/public/:id', { config: { rule: PUBLIC }, schema: { tags, params: idParam, response: replies(brandSchema) } }, async (req) =>
    ok(await service.getBrand(req.ctx, req.params.id)),
  );
  app.get(
    '/api/competition/brand/public/page',
    { config: { rule: PUBLIC }, schema: { tags, querystring: brandListQuery, response: replies(pageOf(brandSchema)) } },
    async (req) => {
      const { list, total } = await service.listBrands(req.ctx, req.query);
      return page(list, total, req.query);
    },
  );

  // Brand navigation.
  app.post(
    '/api/competition/brand/nav/',
    { config: { rule: BRAND_EDIT }, schema: { tags, body: brandNavBody, response: replies(createdIdSchema) } },
    async (req) => ok(await service.createNav(req.ctx, req.body), '品牌导航已保存'),
  );
  app.put(
    '/api/competition/brand/nav/:id',
    { config: { rule: BRAND_EDIT }, schema: { tags, params: idParam, body: brandNavBody, response: noDataReply } },
    async (req) => {
      await service.updateNav(req.ctx, req.params.id, req.body);
      return ok(null, '品牌导航已保存');
    },
  );
  app.get(
    '/api/competition/brand/nav/byBrandId/:id',
    { config: { rule: perm(ADMIN_MENU_CODES.brand) }, schema: { tags, params: idParam, response: replies(brandNavSchema.nullable()) } },
    async (req) => ok((await service.navByBrand(req.ctx, req.params.id)) ?? null),
  );
  app.get(
    '/api/competition/brand/nav/public/nav',
    {
      config: { rule: PUBLIC },
      schema: {
        tags,
        querystring: z.object({ brandId: z.coerce.number({ error: '请指定品牌' }).int().positive('请指定品牌') }),
        response: replies(brandNavSchema.nullable()),
      },
    },
    // A brand without its own navigation answers null: the site then shows the platform's.
    async (req) => ok((await service.navByBrand(req.ctx, req.query.brandId)) ?? null),
  );
}
