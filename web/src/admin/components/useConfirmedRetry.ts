import { App } from 'antd';
import type { Confirmable, ConfirmField } from '../../api/confirmable.ts';
import { HttpError } from '../../common/http.ts';

/** The server's warning for `field`, when that is why it refused; else null. */
export const confirmWarning = (err: unknown, field: ConfirmField): string | null =>
  err instanceof HttpError && err.status === 409 ? (err.fields?.[field] ?? null) : null;

/** Thrown when the organiser chose not to go on: nothing was changed, and nothing more needs saying. */
export class ConfirmDeclined extends Error {
  constructor() {
    super('已取消，未作修改');
  }
}

const LABELS: Record<ConfirmField, { title: string; okText: string; cancelText: string }> = {
  reopen: { title: '重新开放提交？', okText: '确定重新开放', cancelText: '不重新开放' },
  early: { title: '现在分配作品？', okText: '仍然现在分配', cancelText: '等截止后再分配' },
};

/**
 * Runs the request; when the server answers that it needs the organiser's word (`field`), shows its warning (the
 * server's own sentence) and, confirmed, sends it again with the field set. Any other refusal is said as the http
 * client says it, and rethrown for the form to place its field errors.
 */
export function useConfirmedRetry<F extends ConfirmField>(field: F) {
  const { modal, message } = App.useApp();
  return async function guarded<T>(send: (o: Confirmable<F>) => Promise<T>): Promise<T> {
    try {
      return await send({ silent: true } as Confirmable<F>);
    } catch (err) {
      const warning = confirmWarning(err, field);
      if (!warning) {
        if (err instanceof HttpError) void message.error(err.message);
        throw err;
      }
      const labels = LABELS[field];
      const confirmed = await modal.confirm({
        title: labels.title,
        content: warning,
        okText: labels.okText,
        okButtonProps: { danger: true },
        cancelText: labels.cancelText,
      });
      if (!confirmed) throw new ConfirmDeclined();
      return send({ [field]: true } as Confirmable<F>);
    }
  };
}

/** A change of a competition's dates, stages or menus: asks before reopening submission after publication. */
export const useReopenGuard = () => useConfirmedRetry('reopen');
