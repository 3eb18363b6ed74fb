import { idParam, type PublicQuestion } from '@contest/shared';
import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { PUBLIC } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { notFound } from '../../http/errors.ts';
import { ok } from '../../http/reply.ts';
import { readable } from '../competitions/service.ts';

/** Reviewed questions of a competition, with their public data files. */
async function publicQuestions(ctx: Ctx, competitionId: number, questionId?: number): Promise<PublicQuestion[]> {
  let q = ctx.db
    .selectFrom('questions')
    .select(['id', 'competitionId', 'title', 'content'])
    .where('competitionId', '=', competitionId)
    .where('reviewed', '=', 1);
  if (questionId) q = q.where('id', '=', questionId);
  const questions = await q.orderBy('sort').orderBy('id').execute();
  if (questions.length === 0) return [];
  const files = await ctx.db
    .selectFrom('questionFiles')
    .innerJoin('files', 'files.key', 'questionFiles.fileKey')
    .select(['questionFiles.questionId', 'files.key as fileUri', 'files.originalName as name', 'files.size'])
    .where('questionFiles.questionId', 'in', questions.map((x) => x.id))
    .where('files.visibility', '=', 'public')
    .orderBy('questionFiles.sort')
    .execute();
  return questions.map((x) => ({
    ...x,
    files: files.filter((f) => f.questionId === x.id).map(({ fileUri, name, size }) => ({ fileUri, name, size: Number(size) })),
  }));
}

export function questionRoutes(app: App) {
  const tags = ['question'];
  app.get(
    '/api/competition/question/public/list/:competitionId',
    { config: { rule: PUBLIC }, schema: { tags, params: z.object({ competitionId: z.coerce.number().int().positive() }) } },
    async (req) => {
      await readable(req.ctx, req.params.competitionId);
      return ok(await publicQuestions(req.ctx, req.params.competitionId));
    },
  );
  app.get('/api/competition/question/public/:id', { config: { rule: PUBLIC }, schema: { tags, params: idParam } }, async (req) => {
    const row = await req.ctx.db.selectFrom('questions').select('competitionId').where('id', '=', req.params.id).executeTakeFirst();
    if (!row) throw notFound('赛题不存在');
    await readable(req.ctx, row.competitionId);
    const [question] = await publicQuestions(req.ctx, row.competitionId, req.params.id);
    if (!question) throw notFound('赛题不存在');
    return ok(question);
  });
}
