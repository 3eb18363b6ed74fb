import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  awardApplyResultSchema,
  awardLevelSchema,
  awardLevelsBody,
  gradeSchema,
  idParam,
  teamAwardBody,
  teamAwardSchema,
} from '@contest/shared';
import { z } from 'zod';
import { USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { fileReply, ok, replies } from '../../http/reply.ts';
import { streamXlsx } from '../../http/xlsx.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const GRADES = perm(ADMIN_MENU_CODES.question);
const EDIT = perm(ACTION_CODES.gradeEdit);

/** Awards (spec §7 Works: awards, awards/apply, awards/team, list/awards and the prize export), under the grades' permissions. */
export function awardRoutes(app: App) {
  const tags = ['awards'];
  app.get(
    '/api/review/works/awards/:id',
    { config: { rule: GRADES }, schema: { tags, params: idParam, response: replies(z.array(awardLevelSchema)) } },
    async (req) => ok(await service.awardLevels(req.ctx, req.params.id)),
  );
  app.put(
    '/api/review/works/awards/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, body: awardLevelsBody, response: replies(z.array(awardLevelSchema)) } },
    async (req) => ok(await service.saveAwardLevels(req.ctx, req.params.id, req.body), '奖项已保存'),
  );
  app.post(
    '/api/review/works/awards/apply/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, response: replies(awardApplyResultSchema) } },
    async (req) => {
      const result = await service.applyAwards(req.ctx, req.params.id);
      return ok(result, `已按名次评出${result.awarded}支获奖队伍`);
    },
  );
  app.put(
    '/api/review/works/awards/team/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, body: teamAwardBody, response: replies(gradeSchema) } },
    async (req) => ok(await service.setTeamAward(req.ctx, req.params.id, req.body.teamId, req.body.awardId), '奖项已设置'),
  );
  app.get(
    '/api/review/works/list/awards/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, response: replies(z.array(teamAwardSchema)) } },
    async (req) => ok(await service.teamAwards(userCtx(req), req.params.id)),
  );
  app.get('/api/review/works/exportPrize/:id', { config: { rule: GRADES }, schema: { tags, params: idParam, response: fileReply } }, async (req, reply) =>
    streamXlsx(reply, '获奖名单.xlsx', '获奖名单', service.PRIZE_COLUMNS, await service.prizeBatches(userCtx(req), req.params.id)),
  );
}
