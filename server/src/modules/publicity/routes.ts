import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  LEADERBOARD_MAX_LIMIT,
  competitionIdParam,
  idParam,
  objectionBody,
  objectionSchema,
  publicResultsSchema,
  publicityBody,
  publicitySchema,
} from '@contest/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PUBLIC, USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { userCtx } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { publicOrigin } from '../../http/origin.ts';
import { readCache } from '../../http/read-cache.ts';
import { fileReply, ok, replies } from '../../http/reply.ts';
import * as service from './service.ts';

const embedQuery = z.object({
  format: z.enum(['html', 'json', 'csv'], { error: '格式须为html、json或csv' }).default('html'),
  limit: z.coerce.number().int().min(1, '条数须为正整数').max(LEADERBOARD_MAX_LIMIT, `最多${LEADERBOARD_MAX_LIMIT}条`).default(50),
});
const questionIdParam = z.object({ questionId: z.coerce.number().int().positive('编号须为正整数') });

/**
 * The headers of an embeddable page: framed by the competition's listed origins only (CSP frame-ancestors; the
 * platform's own X-Frame-Options is taken off here alone), readable by those origins' scripts (CORS), cached briefly,
 * and never a cookie (the routes are `foreign`: no session is read).
 */
function embedHeaders(req: FastifyRequest, reply: FastifyReply, embedOrigins: string | null) {
  const ancestors = service.frameAncestors(embedOrigins);
  reply.raw.removeHeader('x-frame-options');
  reply.raw.setHeader('content-security-policy', service.embedCsp(ancestors));
  reply.raw.setHeader('cross-origin-resource-policy', 'cross-origin');
  reply.header('cache-control', 'public, max-age=5');
  reply.header('vary', 'origin');
  const origin = req.headers.origin;
  if (origin && ancestors.split(' ').includes(origin)) reply.header('access-control-allow-origin', origin);
}

type Format = 'html' | 'json' | 'csv';
/** An embed as sent: its body in the format asked for, its file name (CSV), and who may frame it. */
interface EmbedPage {
  body: string;
  name: string;
  embedOrigins: string | null;
}
const render = (format: Format, data: unknown, html: () => string, csv: () => string) =>
  format === 'json' ? JSON.stringify(data) : format === 'csv' ? csv() : html();

function send(req: FastifyRequest, reply: FastifyReply, format: Format, page: EmbedPage) {
  embedHeaders(req, reply, page.embedOrigins);
  if (format === 'json') return reply.type('application/json; charset=utf-8').send(page.body);
  if (format === 'csv')
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(page.name)}.csv`)
      .send(page.body);
  return reply.type('text/html; charset=utf-8').send(page.body);
}

/**
 * What the embeds are read from: a page is kept (rendered) for a second by this process and dropped as soon as it
 * writes one of these tables, so that a board framed by many sites at once costs one read a second, not one a visitor.
 */
const EMBED_TABLES = ['questions', 'board_scores', 'teams', 'competitions', 'grades', 'review_rules', 'award_levels', 'certificates', 'disqualifications'];
const EMBED_TTL_MS = 1_000;

/** A refusal as a small page where a browser shows it (a frame asks for HTML); else in the API's envelope. */
function embedError(req: FastifyRequest, reply: FastifyReply, err: unknown, format: Format) {
  if (!(err instanceof AppError)) throw err;
  reply.raw.setHeader('content-security-policy', service.embedCsp("'self'"));
  if (format !== 'html' || !/text\/html/.test(req.headers.accept ?? ''))
    return reply
      .code(err.status)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify({ status: err.status, message: err.message, data: null }));
  const text = err.message.replace(/[&<>"']/g, '');
  return reply
    .code(err.status)
    .type('text/html; charset=utf-8')
    .send(`<!doctype html><meta charset="utf-8"><p style="font:14px sans-serif;color:#999;text-align:center">${text}</p>`);
}

export function publicityRoutes(app: App) {
  const tags = ['competition'];
  const embedReads = readCache(EMBED_TABLES, EMBED_TTL_MS);
  app.get(
    '/api/competition/publicity/:id',
    { config: { rule: perm(ADMIN_MENU_CODES.competition) }, schema: { tags, params: idParam, response: replies(publicitySchema) } },
    async (req) => ok(await service.settings(req.ctx, req.params.id)),
  );
  app.put(
    '/api/competition/publicity/:id',
    { config: { rule: perm(ACTION_CODES.competitionEdit) }, schema: { tags, params: idParam, body: publicityBody, response: replies(publicitySchema) } },
    async (req) => ok(await service.saveSettings(req.ctx, req.params.id, req.body), '公示设置已保存'),
  );
  // 公示: the award list, provisional during the 公示期, final after it.
  app.get(
    '/api/competition/results/public/:id',
    { config: { rule: PUBLIC }, schema: { tags, params: idParam, response: replies(publicResultsSchema) } },
    async (req) => {
      // An online competition's list is the same for everyone: kept a second, as the embeds are (every competition page
      // asks for it). Another's is read afresh, for its organisers only.
      try {
        return ok(await embedReads(req.ctx, `api results ${req.params.id}`, () => service.publicResults({ ...req.ctx, actor: null }, req.params.id)));
      } catch (err) {
        if (err instanceof AppError && err.status === 404) return ok(await service.publicResults(req.ctx, req.params.id));
        throw err;
      }
    },
  );
  app.post(
    '/api/competition/results/objection/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, body: objectionBody, response: replies(objectionSchema) } },
    async (req) => ok(await service.fileObjection(userCtx(req), req.params.id, req.body), '异议已提交，主办方答复后将通知您'),
  );

  // Pages other sites frame, and their data as JSON and CSV.
  app.get(
    '/embed/leaderboard/:questionId',
    { config: { rule: PUBLIC, foreign: true }, schema: { tags: ['embed'], params: questionIdParam, querystring: embedQuery, response: fileReply } },
    async (req, reply) => {
      const { format, limit } = req.query;
      const origin = publicOrigin(req.ctx.config, req) ?? '';
      try {
        const page = await embedReads(req.ctx, `board ${req.params.questionId} ${limit} ${format} ${origin}`, async (): Promise<EmbedPage> => {
          const { board, embedOrigins } = await service.embedBoard(req.ctx, req.params.questionId, limit);
          const body = render(
            format,
            board,
            () => service.boardHtml(board, origin),
            () => service.boardCsv(board),
          );
          return { body, name: `${board.title}-排行榜`, embedOrigins };
        });
        return send(req, reply, format, page);
      } catch (err) {
        return embedError(req, reply, err, format);
      }
    },
  );
  app.get(
    '/embed/results/:competitionId',
    { config: { rule: PUBLIC, foreign: true }, schema: { tags: ['embed'], params: competitionIdParam, querystring: embedQuery, response: fileReply } },
    async (req, reply) => {
      const { format } = req.query;
      const origin = publicOrigin(req.ctx.config, req) ?? '';
      try {
        const page = await embedReads(req.ctx, `results ${req.params.competitionId} ${format} ${origin}`, async (): Promise<EmbedPage> => {
          const { results, embedOrigins } = await service.embedResults(req.ctx, req.params.competitionId);
          const body = render(
            format,
            results,
            () => service.resultsHtml(results, origin),
            () => service.resultsCsv(results),
          );
          return { body, name: `${results.competitionName}-获奖名单`, embedOrigins };
        });
        return send(req, reply, format, page);
      } catch (err) {
        return embedError(req, reply, err, format);
      }
    },
  );
}
