import archiver from 'archiver';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { contentDisposition } from './send-file.ts';

/** One file of a zip: its path inside (segments joined by `/`), and how to open it (only when the zip is ready for it). */
export interface ZipEntry {
  name: string;
  open: () => Promise<Readable | Buffer>;
}

/** A path segment safe inside a zip: a name like `../../x.zip` must not climb out of the folder when unpacked. */
export const zipSegment = (name: string) => name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').replace(/^\.+/, '_');

/**
 * Streams a zip of `first` and the batches `next` gives (until undefined), one file at a time: each is opened only when
 * the zip has taken the one before (it waits for the client), and nothing more is read once the client has gone. A
 * failure part way cuts the connection, so that nobody takes a short zip for the whole. Stored, not compressed: works
 * and certificates are compressed already.
 */
export function sendZip(
  req: FastifyRequest,
  reply: FastifyReply,
  fileName: string,
  first: ZipEntry[],
  next: () => Promise<ZipEntry[] | undefined>,
  done?: () => Promise<unknown>,
) {
  const zip = archiver('zip', { zlib: { level: 0 } });
  reply.header('content-type', 'application/zip').header('content-disposition', contentDisposition(fileName));
  const raw = reply.raw;
  let gone = false;
  raw.once('close', () => {
    gone = !raw.writableFinished;
  });
  // Resolves once the zip has taken the entry in whole, or the client has gone.
  const entered = () =>
    new Promise<void>((resolve) => {
      const settle = () => {
        zip.off('entry', settle);
        raw.off('close', settle);
        resolve();
      };
      zip.once('entry', settle);
      raw.once('close', settle);
    });
  void (async () => {
    try {
      for (let batch: ZipEntry[] | undefined = first; batch && !gone; batch = await next()) {
        for (const e of batch) {
          if (gone) break;
          const taken = entered();
          zip.append(await e.open(), { name: e.name });
          await taken;
        }
      }
      if (gone) zip.abort();
      else await zip.finalize();
    } catch (err) {
      req.log.error({ err }, 'zip failed part way; connection closed');
      zip.abort();
      raw.destroy(err instanceof Error ? err : new Error(String(err)));
    } finally {
      await done?.().catch(() => undefined);
    }
  })();
  return reply.send(zip);
}
