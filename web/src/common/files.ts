import { fileUrls } from '../api/files.ts';

/** The URL an uploaded public image (avatar, logo) is read from. */
export const avatarUrl = fileUrls.download;

/** The URL any uploaded file is read from; private files answer only to those the server lets read them. */
export const fileUrl = avatarUrl;
