import {
  agreeBody,
  agreeQuery,
  batchUpdateMemberBody,
  choiceBody,
  competitionIdParam,
  idParam,
  invitationBody,
  invitationSentSchema,
  joinViewSchema,
  registerDetailSchema,
  teamDetailSchema,
  teamInvitationSchema,
  teamMemberSchema,
  teamRegisterBody,
  teamRegisteredSchema,
  teamSchema,
  teamUpdateBody,
  updateTeacherBody,
} from '@contest/shared';
import { z } from 'zod';
import { USER } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { noDataReply, ok, replies } from '../../http/reply.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

export function teamRoutes(app: App) {
  const tags = ['team'];

  app.post(
    '/api/team/register/:competitionId',
    { config: { rule: USER }, schema: { tags, params: competitionIdParam, body: teamRegisterBody, response: replies(teamRegisteredSchema) } },
    async (req) => ok(await service.register(userCtx(req), req.params.competitionId, req.body), '报名成功'),
  );

  // A registration's detail shows its team as the team's pages do: here, where the team's rules are.
  app.get('/api/team/register/:id', { config: { rule: USER }, schema: { tags, params: idParam, response: replies(registerDetailSchema) } }, async (req) =>
    ok(await service.registrationDetail(userCtx(req), req.params.id)),
  );
  // The caller's team in a competition; `detail` adds what the team tab needs beyond it.
  app.get('/api/team/competition/:id', { config: { rule: USER }, schema: { tags, params: idParam, response: replies(teamSchema.nullable()) } }, async (req) =>
    ok(await service.myTeam(userCtx(req), req.params.id)),
  );
  app.get(
    '/api/team/competition/:id/detail',
    { config: { rule: USER }, schema: { tags, params: idParam, response: replies(teamDetailSchema) } },
    async (req) => {
      const team = await service.myTeam(userCtx(req), req.params.id);
      const invitations = team ? [] : await service.myInvitations(userCtx(req), req.params.id);
      return ok({ team, invitations });
    },
  );
  app.get('/api/team/:id', { config: { rule: USER }, schema: { tags, params: idParam, response: replies(teamSchema) } }, async (req) =>
    ok(await service.readableTeam(userCtx(req), req.params.id)),
  );
  // The join page: who invites, to which team, and the form to fill.
  app.get(
    '/api/team/team/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, querystring: agreeQuery, response: replies(joinViewSchema) } },
    async (req) => ok(await service.joinView(userCtx(req), req.params.id, req.query.code)),
  );
  app.put('/api/team/update/:id', { config: { rule: USER }, schema: { tags, params: idParam, body: teamUpdateBody, response: noDataReply } }, async (req) => {
    await service.update(userCtx(req), req.params.id, req.body);
    return ok(null, '队伍信息已保存');
  });
  app.put(
    '/api/team/updateTeacher/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, body: updateTeacherBody, response: noDataReply } },
    async (req) => {
      await service.updateTeachers(userCtx(req), req.params.id, req.body.teacherList);
      return ok(null, '指导老师已保存');
    },
  );

  // Question choice: the body form, and the path form `{teamId}/{questionId}`.
  app.put(
    '/api/team/choiceQuestion/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, body: choiceBody, response: noDataReply } },
    async (req) => {
      await service.chooseQuestion(userCtx(req), req.params.id, req.body.questionId);
      return ok(null, '已选择赛题');
    },
  );
  app.put(
    '/api/team/choiceQuestion/:a/:b',
    {
      config: { rule: USER },
      schema: { tags, params: z.object({ a: z.coerce.number().int().positive(), b: z.coerce.number().int().positive() }), response: noDataReply },
    },
    async (req) => {
      await service.chooseQuestion(userCtx(req), req.params.a, req.params.b);
      return ok(null, '已选择赛题');
    },
  );

  // Members and invitations.
  app.get('/api/team/member/invitation/mine', { config: { rule: USER }, schema: { tags, response: replies(z.array(teamInvitationSchema)) } }, async (req) =>
    ok(await service.myInvitations(userCtx(req))),
  );
  app.post(
    '/api/team/member/invitation',
    { config: { rule: USER }, schema: { tags, body: invitationBody, response: replies(invitationSentSchema) } },
    async (req) => ok(await service.invite(userCtx(req), req.body.teamId, req.body.account), '邀请已发出'),
  );
  app.post(
    '/api/team/member/agree/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, querystring: agreeQuery, body: agreeBody, response: noDataReply } },
    async (req) => {
      await service.agree(userCtx(req), req.params.id, req.query.code, req.body.info);
      return ok(null, '已加入队伍');
    },
  );
  app.put('/api/team/member/refuse/:id', { config: { rule: USER }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.refuse(userCtx(req), req.params.id);
    return ok(null, '已拒绝邀请');
  });
  app.put(
    '/api/team/member/batchUpdateMember',
    { config: { rule: USER }, schema: { tags, body: batchUpdateMemberBody, response: noDataReply } },
    async (req) => {
      await service.batchUpdateMembers(userCtx(req), req.body.teamId, req.body.memberList);
      return ok(null, '队员信息已保存');
    },
  );
  app.get('/api/team/member/:id', { config: { rule: USER }, schema: { tags, params: idParam, response: replies(z.array(teamMemberSchema)) } }, async (req) =>
    ok((await service.readableTeam(userCtx(req), req.params.id)).memberList),
  );
  app.put('/api/team/member/:id', { config: { rule: USER }, schema: { tags, params: idParam, body: agreeBody, response: noDataReply } }, async (req) => {
    await service.updateOwnInfo(userCtx(req), req.params.id, req.body.info);
    return ok(null, '报名信息已保存');
  });
  app.post(
    '/api/team/member/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, body: z.strictObject({ userId: z.number().int().positive() }), response: noDataReply } },
    async (req) => {
      await service.transferLeader(userCtx(req), req.params.id, req.body.userId);
      return ok(null, '已转让队长');
    },
  );
  app.delete(
    '/api/team/member/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, querystring: z.object({ userId: z.coerce.number().int().positive() }), response: noDataReply } },
    async (req) => {
      const ctx = userCtx(req);
      await service.removeMember(ctx, req.params.id, req.query.userId);
      return ok(null, req.query.userId === ctx.actor.userId ? '已退出队伍' : '已移除队员');
    },
  );
}
