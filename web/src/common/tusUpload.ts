import { Upload as TusUpload } from 'tus-js-client';
import { worksUrls } from '../api/works.ts';
import { uploadHeaders } from './upload.ts';

/** Files up to this size get a checksum computed in the browser, which the server verifies. */
const HASH_LIMIT = 100 * 1024 * 1024;

async function sha256(file: File): Promise<string | undefined> {
  if (file.size > HASH_LIMIT || !crypto.subtle) return undefined;
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The server's reason for refusing an upload, from its JSON envelope or tus's plain text. */
function refusal(err: Error): string {
  const body = (err as { originalResponse?: { getBody(): string } | null }).originalResponse?.getBody();
  try {
    return (JSON.parse(body ?? '') as { message?: string }).message ?? body ?? '';
  } catch {
    return body?.trim() || '上传失败，请重试';
  }
}

/** How long an upload cut off by the network waits, in all, for it to come back before it gives up. */
const NETWORK_PATIENCE_MS = 30 * 60_000;
/** While the browser says it is online but the server cannot be reached, it tries again this often. */
const NETWORK_RETRY_MS = 10_000;

/** A failure with no answer from the server: the network (or the server) could not be reached. */
const unreachable = (err: Error) => !(err as { originalResponse?: unknown }).originalResponse;

/**
 * Uploads a file with the tus resumable protocol to the works upload route (works, or a question's data files with
 * `kind: 'data'`): 5 MB chunks, retries, and a file that was cut off resumes where it stopped. When the network goes
 * (the browser offline, or no answer after the retries), it says so (`waiting`) and carries on by itself from where it
 * stopped once the network is back, for up to half an hour; the server's refusals end it at once.
 */
export async function resumableUpload(
  file: File,
  metadata: Record<string, string>,
  on: { progress(percent: number): void; success(): void; error(message: string): void; waiting?(offline: boolean): void },
) {
  const checksum = await sha256(file);
  let waitingSince: number | null = null;
  const resume = () => {
    window.removeEventListener('online', resume);
    upload.start();
  };
  const upload = new TusUpload(file, {
    endpoint: worksUrls.upload,
    chunkSize: 5 * 1024 * 1024,
    retryDelays: [0, 1000, 3000, 5000, 10000],
    headers: uploadHeaders(),
    metadata: { ...metadata, filename: file.name, ...(checksum ? { sha256: checksum } : {}) },
    onProgress: (sent, total) => {
      waitingSince = null;
      on.progress(Math.floor((sent / total) * 100));
    },
    onError: (err) => {
      if (!unreachable(err) || !on.waiting) return on.error(refusal(err));
      waitingSince ??= Date.now();
      if (Date.now() - waitingSince > NETWORK_PATIENCE_MS) return on.error('网络长时间未恢复，上传已停止，请检查网络后重新上传（已上传的部分会保留）');
      const offline = !navigator.onLine;
      on.waiting?.(offline);
      if (offline) window.addEventListener('online', resume);
      else setTimeout(resume, NETWORK_RETRY_MS);
    },
    onSuccess: () => on.success(),
  });
  const previous = await upload.findPreviousUploads();
  if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
  upload.start();
}
