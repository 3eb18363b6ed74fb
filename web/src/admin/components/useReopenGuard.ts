import { App } from 'antd';
import type { DateChange } from '../../api/competition.ts';
import { HttpError } from '../../common/http.ts';

/** The server's refusal of a change that would reopen submission after results were published: its warning, or null. */
export const reopenWarning = (err: unknown): string | null => (err instanceof HttpError && err.status === 409 ? (err.fields?.reopen ?? null) : null);

/** Thrown when the organiser chose not to reopen: nothing was changed, and nothing more needs saying. */
export class ReopenDeclined extends Error {
  constructor() {
    super('未重新开放，修改未保存');
  }
}

/**
 * Runs a change of a competition's dates, stages or menus. When the server answers that it would reopen a submission
 * after results were published, the organiser reads what that does to the published results (the server's words)
 * and either confirms, and the change is sent again with `reopen`, or keeps things as they are. Any other refusal is
 * said as the http client says it, and rethrown for the form to place its field errors.
 */
export function useReopenGuard() {
  const { modal, message } = App.useApp();
  return async function guarded<T>(send: (o: DateChange) => Promise<T>): Promise<T> {
    try {
      return await send({ silent: true });
    } catch (err) {
      const warning = reopenWarning(err);
      if (!warning) {
        if (err instanceof HttpError) void message.error(err.message);
        throw err;
      }
      const confirmed = await modal.confirm({
        title: '重新开放提交？',
        content: warning,
        okText: '确定重新开放',
        okButtonProps: { danger: true },
        cancelText: '不重新开放',
      });
      if (!confirmed) throw new ReopenDeclined();
      return send({ reopen: true });
    }
  };
}
