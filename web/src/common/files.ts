/** The URL an uploaded public image (avatar, logo) is read from. */
export const avatarUrl = (fileUri: string) => `/api/file/common/download?fileUri=${encodeURIComponent(fileUri)}`;
