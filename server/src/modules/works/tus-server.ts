import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server as TusServer } from '@tus/server';
import { Redis } from 'ioredis';
import type { Deps } from '../../context.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import { AppError, DATABASE_UNAVAILABLE, STORAGE_FULL, isStorageFull } from '../../http/errors.ts';
import { RedisLocker } from './redis-locker.ts';
import { uploadArea } from './upload-area.ts';

/**
 * The tus server that stores works' bytes under `path`, made on the first upload (an instance that never takes works
 * touches no upload folder, bucket or lock). `idOf` names the upload a request acts on: the id the route checked.
 * `finish` records the finished upload as a version; its refusals (an AppError) are answered in tus's own protocol.
 */
export function makeUploadServer(deps: Deps, path: string, idOf: (req: Request) => string | undefined, finish: (uploadId: string) => Promise<void>) {
  // With Redis, instances may take the same upload's requests (a shared UPLOADS_DIR, or the bucket when S3 is
  // configured): one PATCH at a time per upload across all of them. Alone, tus's in-memory locker does.
  let locker: RedisLocker | undefined;
  const make = async () => {
    const datastore = await uploadArea(deps.config).datastore();
    const { redisUrl, redisPrefix } = deps.config;
    if (redisUrl) locker = new RedisLocker(new Redis(redisUrl), `${redisPrefix}tus-lock:`);
    return new TusServer({
      path,
      datastore,
      locker,
      relativeLocation: true,
      namingFunction: (req) => {
        const id = idOf(req);
        if (!id) throw new Error('works upload without a checked id');
        return id;
      },
      getFileIdFromRequest: (req) => idOf(req),
      async onResponseError(_req, err) {
        if ('status_code' in err) {
          // A write that failed midway (answered 「作品接收中断」) carries why.
          if ('cause' in err && err.cause) deps.log.warn({ err: err.cause }, 'works upload interrupted');
          return undefined;
        }
        deps.log.error({ err }, 'works upload failed');
        // The bytes received so far stay; the client resumes from the offset a HEAD reports once there is room again.
        if (isStorageFull(err)) return { status_code: 507, body: STORAGE_FULL };
        if (isDatabaseUnavailable(err)) return { status_code: 503, body: DATABASE_UNAVAILABLE };
        return undefined;
      },
      async onUploadFinish(_req, upload) {
        try {
          await finish(upload.id);
          return {};
        } catch (err) {
          if (err instanceof AppError) throw { status_code: err.status, body: err.message };
          deps.log.error({ err, uploadId: upload.id }, 'finishing a works upload failed');
          // The upload stays complete on the tus side: repeating the last PATCH (empty, at the full offset) finishes it.
          if (isStorageFull(err)) throw { status_code: 507, body: STORAGE_FULL };
          if (isDatabaseUnavailable(err)) throw { status_code: 503, body: DATABASE_UNAVAILABLE };
          throw { status_code: 500, body: '作品保存失败，请重新上传' };
        }
      },
    });
  };

  let server: Promise<TusServer> | undefined;
  const tus = () =>
    (server ??= make().catch((err: unknown) => {
      server = undefined;
      throw err;
    }));
  return {
    handle: async (req: IncomingMessage, res: ServerResponse) => (await tus()).handle(req, res),
    close: async () => {
      await locker?.close();
    },
  };
}
