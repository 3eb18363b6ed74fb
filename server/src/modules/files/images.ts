import type { Ctx } from '../../context.ts';
import { badRequest } from '../../http/errors.ts';
import * as repo from './repo.ts';

export const IMAGE_PURPOSES = ['avatar', 'logo', 'cover', 'content'] as const;
export type ImagePurpose = (typeof IMAGE_PURPOSES)[number];

/**
 * A new image reference must name an image the caller uploaded, so nobody can point a record at
 * another user's file. A reference that did not change is left alone.
 */
export async function assertOwnImage(ctx: Ctx, field: string, fileUri: string | null | undefined, previous?: string | null) {
  if (!fileUri || fileUri === previous) return;
  const file = await repo.fileOwner(ctx.db, fileUri);
  if (!file || file.ownerId !== ctx.actor?.userId || !(IMAGE_PURPOSES as readonly string[]).includes(file.purpose)) {
    throw badRequest('图片无效，请重新上传', { [field]: '图片无效，请重新上传' });
  }
}
