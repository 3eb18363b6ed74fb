/** An error a user can act on: HTTP status, a Chinese sentence, and optionally field errors. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) => new AppError(400, message, fields);
export const unauthorized = (message = '当前会话已超时，请重新登录！') => new AppError(401, message);
export const forbidden = (message = '没有权限执行此操作') => new AppError(403, message);
export const notFound = (message = '数据不存在或已被删除') => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooMany = (message: string) => new AppError(429, message);

export const STORAGE_FULL = '服务器存储空间不足，请稍后再试';
export const DATABASE_UNAVAILABLE = '数据库暂时不可用，请稍后再试';

/** True when a write failed because the disk (or the database file's disk) is full. */
export function isStorageFull(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL';
}

/** Default messages for statuses raised by the framework rather than by our code. */
export const STATUS_MESSAGES: Record<number, string> = {
  400: '请求参数不正确',
  401: '当前会话已超时，请重新登录！',
  403: '没有权限执行此操作',
  404: '接口不存在',
  405: '请求方法不被允许',
  406: '不支持的响应格式',
  408: '请求超时',
  409: '操作冲突，请刷新后重试',
  411: '缺少请求长度',
  413: '请求内容过大',
  414: '请求地址过长',
  415: '不支持的请求内容类型',
  416: '请求的文件范围无效',
  429: '请求过于频繁，请稍后再试',
  431: '请求头过大',
  500: '服务器内部错误，请稍后再试',
  503: DATABASE_UNAVAILABLE,
  507: STORAGE_FULL,
};
