import type { IncomingMessage } from 'node:http';
import {
  ADMIN_MENU_CODES,
  formatSize,
  idParam,
  pageOf,
  versionedFileName,
  workVersionSchema,
  worksPageQuery,
  worksQuery,
  worksRulesSchema,
  worksZipQuery,
  type WorkVersion,
  declaredRateField,
  similarityReportSchema,
} from '@contest/shared';
import { z } from 'zod';
import { sendZip, zipSegment, type ZipEntry } from '../../http/zip.ts';
import { idleLimit } from '../../http/socket.ts';
import { USER, perm } from '../../http/access.ts';
import type { App, Deps } from '../../http/app-types.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, badRequest, conflict } from '../../http/errors.ts';
import { fileReply, ok, page, replies } from '../../http/reply.ts';
import { fairSemaphore } from '../../http/semaphore.ts';
import { beijingTime, streamXlsx, type Column } from '../../http/xlsx.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const UPLOAD_PATH = '/api/review/works/upload';
/**
 * The upload a raw request acts on, set by the route once its checks have passed. tus reads it from here, not from
 * the URL or a header: the id it writes to is always the one whose owner was checked, and always one the server chose.
 */
const uploadOf = new WeakMap<IncomingMessage, string>();
const uploadIdOf = (req: Request) => {
  const raw = (req as Request & { runtime?: { node?: { req: IncomingMessage } } }).runtime?.node?.req;
  return raw && uploadOf.get(raw);
};
const MENU = perm(ADMIN_MENU_CODES.competition);

const EXPORT_COLUMNS: Column<WorkVersion>[] = [
  { header: '队伍编号', value: (w) => w.teamNo },
  { header: '队伍名称', value: (w) => w.teamName, width: 24 },
  { header: '版本', value: (w) => w.version, width: 8 },
  { header: '是否有效', value: (w) => (w.counts ? '有效' : ''), width: 10 },
  { header: '文件名', value: (w) => w.fileName, width: 30 },
  { header: '大小', value: (w) => formatSize(w.size) },
  { header: 'SHA-256', value: (w) => w.sha256, width: 66 },
  { header: '提交人', value: (w) => w.username },
  { header: '完成时间', value: (w) => beijingTime(w.completedAt), width: 20 },
];

/**
 * Works are uploaded with the tus resumable protocol: the creation request is checked here (team, window, size,
 * type) before tus stores a byte; each later request must come from the uploading team; the finish hook stamps the
 * time, refuses a late finish, verifies the checksum and records a new version.
 */
export function worksRoutes(app: App, deps: Deps) {
  const tags = ['works'];
  // Made on the first upload: an instance that never takes works touches no upload folder, bucket or lock.
  const tus = service.uploadServer(deps, UPLOAD_PATH, uploadIdOf);
  app.addHook('onClose', () => tus.close());
  const { idleTimeoutMs, slots, slotsPerTeam } = deps.config.uploads;
  // Upload bodies received at once by this instance, and by one team (or one uploader of data files). The rest wait
  // with their sockets paused (TCP holds their bytes in the clients), so memory follows `slots`, not the size of the
  // rush before a deadline, and one team's stalled uploads can never hold the places of the others.
  const slotsFor = fairSemaphore(slots, slotsPerTeam);
  /**
   * Hands a checked request to tus in one of the owner's slots. While it waits for the slot nothing is read, so no
   * idle limit applies; once in, a body on which nothing arrives for `idleTimeoutMs` is cut off (the bytes received
   * so far stay, and the client resumes from the offset a HEAD reports).
   */
  const receive = (req: FastifyRequest, reply: FastifyReply, uploadId: string, owner: string) => {
    uploadOf.set(req.raw, uploadId);
    reply.hijack();
    idleLimit(req, 0);
    return slotsFor(owner, async () => {
      idleLimit(req, idleTimeoutMs);
      try {
        await tus.handle(req.raw, reply.raw);
      } finally {
        idleLimit(req, deps.config.connectionTimeoutMs);
      }
    });
  };
  app.register(async (scope) => {
    // tus reads the body itself, and answers in its own protocol (status and headers, no JSON envelope): declared as
    // `fileReply`, a reply the serializer never sees.
    scope.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null));
    scope.post(UPLOAD_PATH, { config: { rule: USER }, schema: { hide: true, response: fileReply } }, async (req, reply) => {
      const { uploadId, owner } = await service.beginUpload(
        userCtx(req),
        req.headers['upload-length'] as string | undefined,
        req.headers['upload-metadata'] as string | undefined,
      );
      await receive(req, reply, uploadId, owner);
    });
    scope.route({
      method: ['HEAD', 'PATCH', 'DELETE'],
      url: `${UPLOAD_PATH}/:uploadId`,
      config: { rule: USER },
      // 204: a cancelled upload, answered as tus answers a termination.
      schema: { hide: true, response: { ...fileReply, 204: fileReply[200] } },
      handler: async (req, reply) => {
        const { uploadId } = req.params as { uploadId: string };
        const owner = await service.assertUploadOwner(userCtx(req), uploadId);
        if (req.method === 'HEAD') {
          const finished = await service.finishIfComplete(deps, uploadId).catch((err: unknown) => {
            throw err instanceof service.DeadlinePassed ? conflict(err.message) : err;
          });
          // Recorded just now, so tus no longer holds it: answered as tus answers for a complete upload.
          if (finished !== null) {
            return reply
              .code(200)
              .headers({ 'tus-resumable': '1.0.0', 'upload-offset': finished, 'upload-length': finished, 'cache-control': 'no-store' })
              .send();
          }
        }
        if (req.method === 'PATCH') return receive(req, reply, uploadId, owner);
        // Cancelled: dropped here, as the idle-upload sweeper drops one, and answered as tus answers a termination.
        if (req.method === 'DELETE') {
          await service.cancelUpload(deps, uploadId);
          return reply.code(204).headers({ 'tus-resumable': '1.0.0', 'cache-control': 'no-store' }).send();
        }
        uploadOf.set(req.raw, uploadId);
        reply.hijack();
        await tus.handle(req.raw, reply.raw);
      },
    });
  });

  // The team's own 查重 report (知网, 维普…) and the rate it declares (issue 37).
  app.get(
    '/api/review/works/similarityReport/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, response: replies(similarityReportSchema.nullable()) } },
    async (req) => ok(await service.similarityReport(userCtx(req), req.params.id)),
  );
  app.post(
    '/api/review/works/similarityReport/:id',
    {
      config: { rule: USER },
      schema: { tags, params: idParam, querystring: z.object({ declaredRate: declaredRateField }), response: replies(similarityReportSchema) },
    },
    async (req) => {
      if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
      const part = await req.file({ limits: { files: 1, fileSize: service.SIMILARITY_REPORT_MAX_BYTES + 1 } });
      if (!part) throw badRequest('请选择查重报告文件', { file: '请选择查重报告文件' });
      return ok(await service.uploadSimilarityReport(userCtx(req), req.params.id, part.file, part.filename, req.query.declaredRate), '查重报告已上传');
    },
  );
  app.get('/api/review/works/rules/:id', { config: { rule: USER }, schema: { tags, params: idParam, response: replies(worksRulesSchema) } }, async (req) =>
    ok(await service.rules(userCtx(req), req.params.id)),
  );
  app.get(
    '/api/review/works/page/:id',
    { config: { rule: MENU }, schema: { tags, params: idParam, querystring: worksPageQuery, response: replies(pageOf(workVersionSchema)) } },
    async (req, reply) => {
      if (req.query.export)
        return streamXlsx(reply, '作品列表.xlsx', '作品', EXPORT_COLUMNS, await service.exportQuestionWorks(req.ctx, req.params.id, req.query));
      const { list, total } = await service.questionWorks(req.ctx, req.params.id, req.query);
      return page(list, total, req.query);
    },
  );
  // The counted version of every team, or the selected versions (`?ids=`), streamed as one zip with a folder per team:
  // every one of them, read in batches, each file opened only when the zip is ready for it.
  app.get(
    '/api/review/works/export/:id',
    { config: { rule: MENU }, schema: { tags, params: idParam, querystring: worksZipQuery, response: fileReply } },
    async (req, reply) => {
      const { ids } = req.query;
      const batches = (await service.exportQuestionWorks(req.ctx, req.params.id, { ids }))[Symbol.asyncIterator]();
      const nextChosen = async (): Promise<WorkVersion[] | undefined> => {
        for (;;) {
          const next = await batches.next();
          if (next.done) return undefined;
          const chosen = ids ? next.value : next.value.filter((w) => w.counts);
          if (chosen.length) return chosen;
        }
      };
      // The first works are read before the first byte, so that nothing to send is still a 404 with its message.
      const first = await nextChosen();
      if (!first) throw new AppError(404, ids ? '所选作品不存在' : '该赛题还没有作品');
      const entries = (batch: WorkVersion[]): ZipEntry[] =>
        batch.map((w) => ({
          name: `${zipSegment(`${w.teamNo}-${w.teamName}`)}/${zipSegment(versionedFileName(w))}`,
          open: () => req.ctx.storage.get(w.fileUri),
        }));
      const more = async () => {
        const batch = await nextChosen();
        return batch && entries(batch);
      };
      return sendZip(req, reply, `赛题${req.params.id}${ids ? '所选' : ''}作品.zip`, entries(first), more, async () => batches.return?.(undefined));
    },
  );
  app.get(
    '/api/review/works/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, querystring: worksQuery, response: replies(z.array(workVersionSchema)) } },
    async (req) => ok(await service.teamVersions(userCtx(req), req.params.id, req.query.teamId)),
  );
}
