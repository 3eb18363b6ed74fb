import { App } from 'antd';
import type { ReactNode } from 'react';
import { HttpError } from '../../common/http.ts';
import { ConfirmDeclined } from './useConfirmedRetry.ts';

/**
 * The confirmation every destructive or irreversible action asks first (title 提示, buttons 确定 and
 * 取消, as the logout confirmation of spec §8). The dialog stays open with a spinner while `onOk` runs
 * and closes when it ends, also when the server refused (the http client has already said why, and
 * asking again would not change the answer) or the organiser declined a second question the server asked.
 */
export function useConfirm() {
  const { modal } = App.useApp();
  return (content: ReactNode, onOk: () => Promise<unknown>, options: { danger?: boolean } = {}) =>
    modal.confirm({
      title: '提示',
      content,
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { danger: options.danger },
      onOk: async () => {
        try {
          await onOk();
        } catch (err) {
          if (!(err instanceof HttpError) && !(err instanceof ConfirmDeclined)) throw err;
        }
      },
    });
}
