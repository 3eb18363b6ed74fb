import { CSRF_COOKIE, CSRF_HEADER } from '@contest/shared';
import { fileUrls, type ImagePurpose } from '../api/files.ts';
import { readCookie } from './storage.ts';

export type { ImagePurpose };

export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';
/** The server's default upload limit (`AVATAR_MAX_BYTES`); checked here first to spare a useless upload. */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

export const imageUploadUrl = fileUrls.uploadImage;

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
