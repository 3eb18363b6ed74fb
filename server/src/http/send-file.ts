import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../context.ts';
import { AppError } from './errors.ts';

/** RFC 6266 / 5987: an ASCII fallback plus the UTF-8 name, so Chinese file names survive. */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Sends a stored file whole or, for a `Range` request, in part (206), so an interrupted download resumes. */
export async function sendStoredFile(
  deps: Pick<Deps, 'storage'>,
  req: FastifyRequest,
  reply: FastifyReply,
  file: { key: string; name: string; mime: string; sha256?: string | null },
) {
  const size = (await deps.storage.size(file.key)) ?? 0;
  const range = parseRange(req.headers.range, size);
  reply.header('accept-ranges', 'bytes');
  // The whole file's hash, so a download manager can check what it assembled from parts.
  if (file.sha256) reply.header('x-sha256', file.sha256);
  reply.header('content-type', file.mime);
  reply.header('content-disposition', contentDisposition(file.name));
  if (range === 'invalid') {
    reply.header('content-range', `bytes */${size}`);
    throw new AppError(416, '请求的文件范围无效');
  }
  if (range) {
    reply.code(206);
    reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
    reply.header('content-length', range.end - range.start + 1);
    return reply.send(await deps.storage.get(file.key, range));
  }
  reply.header('content-length', size);
  return reply.send(await deps.storage.get(file.key));
}

function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}
