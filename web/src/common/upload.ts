import { CSRF_COOKIE, CSRF_HEADER } from '@contest/shared';
import { readCookie } from './storage.ts';

/** Images a back-office user uploads, by what they are for (the server keeps them apart). */
export type ImagePurpose = 'logo' | 'cover' | 'content';

export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';
/** The server's default upload limit (`AVATAR_MAX_BYTES`); checked here first to spare a useless upload. */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

export const imageUploadUrl = (purpose: ImagePurpose) => `/api/file/upload/image?purpose=${purpose}`;

/**
 * Headers for uploads that do not go through the http client (antd Upload, the rich-text editor):
 * a cookie-authenticated write must echo the CSRF cookie, and the AJAX marker keeps errors as JSON.
 * Read at upload time, since the cookie changes when the user logs in again.
 */
export function uploadHeaders(): Record<string, string> {
  return { [CSRF_HEADER]: readCookie(CSRF_COOKIE) ?? '', 'X-Requested-With': 'XMLHttpRequest' };
}

/** The message of an upload's error reply (the API envelope), falling back to a generic one. */
export function uploadError(response: unknown): string {
  const text = (response as { message?: unknown } | undefined)?.message;
  return typeof text === 'string' && text ? text : '上传失败';
}
