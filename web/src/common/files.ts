/** The URL an uploaded public image (avatar, logo) is read from. */
export const avatarUrl = (fileUri: string) => `/api/file/common/download?fileUri=${encodeURIComponent(fileUri)}`;

/** The URL any uploaded file is read from; private files answer only to those the server lets read them. */
export const fileUrl = avatarUrl;
