/** Uploaded files (spec §7 `/api/file/*`): where they are read from and where the upload widgets send them. */

/** Images a back-office user uploads, by what they are for (the server keeps them apart). */
export type ImagePurpose = 'logo' | 'cover' | 'content';
/** Private PDF or picture uploads: registration attachments, transfer vouchers, issued invoices. */
export type DocumentPurpose = 'attachment' | 'voucher' | 'invoice' | 'identity' | 'objection';

export const fileUrls = {
  /** Any uploaded file; private ones answer only to those the server lets read them. */
  download: (fileUri: string) => `/api/file/common/download?fileUri=${encodeURIComponent(fileUri)}`,
  uploadAvatar: '/api/file/upload/avatar',
  uploadImage: (purpose: ImagePurpose) => `/api/file/upload/image?purpose=${purpose}`,
  uploadDocument: (purpose: DocumentPurpose) => `/api/file/upload/document?purpose=${purpose}`,
};
