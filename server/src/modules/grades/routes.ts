import { ACTION_CODES, ADMIN_MENU_CODES, awardLevelsBody, competitionIdParam, disputeAnswerBody, disputeBody, disputePageQuery, gradePageQuery, idParam, teamAwardBody, totalText } from '@contest/shared';
import { USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { ok, page } from '../../http/reply.ts';
import { sendXlsx, type Column } from '../../http/xlsx.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const GRADES = perm(ADMIN_MENU_CODES.question);
const EDIT = perm(ACTION_CODES.gradeEdit);

type ExportRow = Awaited<ReturnType<typeof service.exportRows>>[number];
const names = (list: { name: string }[]) => list.map((p) => p.name).join('、');
const TEAM_COLUMNS: Column<ExportRow>[] = [
  { header: '队伍编号', value: (g) => g.teamNo },
  { header: '队伍名称', value: (g) => g.teamName, width: 24 },
  { header: '队员', value: (g) => names(g.members), width: 30 },
  { header: '学校', value: (g) => g.schools.join('、'), width: 30 },
  { header: '指导教师', value: (g) => names(g.teachers), width: 20 },
];
const GRADE_COLUMNS: Column<ExportRow>[] = [
  { header: '名次', value: (g) => g.rank ?? '', width: 8 },
  ...TEAM_COLUMNS,
  { header: '各专家评分', value: (g) => g.reviewScores.map((t) => totalText(t, g.maxTotal)).join('、'), width: 24 },
  { header: '评审成绩', value: (g) => g.reviewScore ?? '' },
  { header: '测试成绩', value: (g) => g.testScore ?? '' },
  { header: '测试得分', value: (g) => g.testPoints ?? '' },
  { header: '最终成绩', value: (g) => g.finalScore ?? '' },
  { header: '奖项', value: (g) => g.awardName ?? '' },
];
const PRIZE_COLUMNS: Column<ExportRow>[] = [
  { header: '奖项', value: (g) => g.awardName ?? '' },
  { header: '名次', value: (g) => g.rank ?? '', width: 8 },
  ...TEAM_COLUMNS,
  { header: '最终成绩', value: (g) => g.finalScore ?? '' },
];

/** Grades (spec §7 Works: calcFinalScore, confirmFinalScore, disputeScore, list/awards and the export bases). */
export function gradeRoutes(app: App) {
  const tags = ['grades'];
  app.get('/api/review/works/grade/summary/:id', { config: { rule: GRADES }, schema: { tags, params: idParam } }, async (req) => ok(await service.gradeSummary(req.ctx, req.params.id)));
  app.get('/api/review/works/grade/:id', { config: { rule: GRADES }, schema: { tags, params: idParam, querystring: gradePageQuery } }, async (req) => {
    const { list, total } = await service.gradePage(req.ctx, req.params.id, req.query);
    return page(list, total, req.query);
  });
  app.post('/api/review/works/calcFinalScore/:id', { config: { rule: EDIT }, schema: { tags, params: idParam } }, async (req) => ok(await service.calculate(req.ctx, req.params.id), '成绩已计算'));
  app.post('/api/review/works/confirmFinalScore/:id', { config: { rule: EDIT }, schema: { tags, params: idParam } }, async (req) => ok(await service.confirm(req.ctx, req.params.id), '成绩已确认'));
  app.get('/api/review/works/exportGrade/:id', { config: { rule: GRADES }, schema: { tags, params: idParam } }, async (req, reply) =>
    sendXlsx(reply, '成绩表.xlsx', '成绩', GRADE_COLUMNS, await service.exportRows(userCtx(req), req.params.id, false)),
  );
  app.get('/api/review/works/exportPrize/:id', { config: { rule: GRADES }, schema: { tags, params: idParam } }, async (req, reply) =>
    sendXlsx(reply, '获奖名单.xlsx', '获奖名单', PRIZE_COLUMNS, await service.exportRows(userCtx(req), req.params.id, true)),
  );

  app.get('/api/review/works/myGrade/:competitionId', { config: { rule: USER }, schema: { tags, params: competitionIdParam } }, async (req) => ok(await service.myGrades(userCtx(req), req.params.competitionId)));
  app.post('/api/review/works/disputeScore/:id', { config: { rule: USER }, schema: { tags, params: idParam, body: disputeBody } }, async (req) =>
    ok(await service.fileDispute(userCtx(req), req.params.id, req.body.reason), '申诉已提交，请等待答复'),
  );
  app.get('/api/review/works/dispute/page/:id', { config: { rule: GRADES }, schema: { tags, params: idParam, querystring: disputePageQuery } }, async (req) => {
    const { list, total } = await service.disputePage(req.ctx, req.params.id, req.query);
    return page(list, total, req.query);
  });
  app.put('/api/review/works/dispute/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, body: disputeAnswerBody } }, async (req) =>
    ok(await service.answerDispute(userCtx(req), req.params.id, req.body), '申诉已答复'),
  );

  app.get('/api/review/works/awards/:id', { config: { rule: GRADES }, schema: { tags, params: idParam } }, async (req) => ok(await service.awardLevels(req.ctx, req.params.id)));
  app.put('/api/review/works/awards/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, body: awardLevelsBody } }, async (req) => ok(await service.saveAwardLevels(req.ctx, req.params.id, req.body), '奖项已保存'));
  app.post('/api/review/works/awards/apply/:id', { config: { rule: EDIT }, schema: { tags, params: idParam } }, async (req) => {
    const result = await service.applyAwards(req.ctx, req.params.id);
    return ok(result, `已按名次评出${result.awarded}支获奖队伍`);
  });
  app.put('/api/review/works/awards/team/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, body: teamAwardBody } }, async (req) =>
    ok(await service.setTeamAward(req.ctx, req.params.id, req.body.teamId, req.body.awardId), '奖项已设置'),
  );
  app.get('/api/review/works/list/awards/:id', { config: { rule: USER }, schema: { tags, params: idParam } }, async (req) => ok(await service.teamAwards(userCtx(req), req.params.id)));
}
