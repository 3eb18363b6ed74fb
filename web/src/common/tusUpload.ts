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

/**
 * Uploads a file with the tus resumable protocol to the works upload route (works, or a question's data files with
 * `kind: 'data'`): 5 MB chunks, retries, and a file that was cut off resumes where it stopped.
 */
export async function resumableUpload(
  file: File,
  metadata: Record<string, string>,
  on: { progress(percent: number): void; success(): void; error(message: string): void },
) {
  const checksum = await sha256(file);
  const upload = new TusUpload(file, {
    endpoint: worksUrls.upload,
    chunkSize: 5 * 1024 * 1024,
    retryDelays: [0, 1000, 3000, 5000, 10000],
    headers: uploadHeaders(),
    metadata: { ...metadata, filename: file.name, ...(checksum ? { sha256: checksum } : {}) },
    onProgress: (sent, total) => on.progress(Math.floor((sent / total) * 100)),
    onError: (err) => on.error(refusal(err)),
    onSuccess: () => on.success(),
  });
  const previous = await upload.findPreviousUploads();
  if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
  upload.start();
}
