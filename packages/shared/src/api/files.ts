import { z } from 'zod';

/** `POST /api/file/upload/*`: the stored file, referred to by `fileUri` in the record it belongs to. */
export const uploadedFileSchema = z.object({ fileUri: z.string(), size: z.number().int(), name: z.string() });
export type UploadedFile = z.infer<typeof uploadedFileSchema>;
/** `POST /api/file/upload/avatar` and `/image`: a public picture, shown by its `fileUri`. */
export const uploadedImageSchema = uploadedFileSchema.pick({ fileUri: true, size: true });
export type UploadedImage = z.infer<typeof uploadedImageSchema>;
/**
 * The file a download sends (spec §7 Files): the query of `GET /api/file/common/download`, and the form-encoded body of
 * its `POST` (`fileUri=…`, nothing else).
 */
export const fileDownloadBody = z.strictObject({ fileUri: z.string({ error: '请指定文件' }).min(1, '请指定文件').max(200) });
