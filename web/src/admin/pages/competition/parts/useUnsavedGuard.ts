import { App } from 'antd';
import { useCallback, useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';

/**
 * Asks before the organiser leaves with unsaved changes. Every navigation of the back office's router is held back
 * while there are changes: the sidebar menu, the tag tabs (switching, closing, refreshing), the breadcrumb, links, and
 * the browser's back and forward buttons; one dialog asks, and the navigation goes on only if the organiser drops the
 * changes. When the page itself unloads (reload, closing the window, another address) the browser asks with its own
 * prompt. `confirmLeave` asks the same for the page's own ways out (its tabs and buttons) and resolves true when there
 * is nothing to lose or the organiser chose to drop the changes; a navigation made right after it is not asked again.
 */
export function useUnsavedGuard(dirty: boolean, what: string) {
  const { modal } = App.useApp();
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const asking = useRef(false);

  const ask = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        modal.confirm({
          title: '有未保存的修改',
          content: `${what}还没有保存，离开后这些修改将丢失。`,
          okText: '放弃修改',
          okButtonProps: { danger: true },
          cancelText: '继续编辑',
          onOk: () => resolve(true),
          onCancel: () => resolve(false),
        });
      }),
    [modal, what],
  );

  // Read at each navigation, so that dropping the changes lets the very next one through.
  const blocker = useBlocker(useCallback(() => dirtyRef.current, []));
  useEffect(() => {
    if (blocker.state !== 'blocked' || asking.current) return;
    asking.current = true;
    void ask().then((leave) => {
      asking.current = false;
      if (!leave) return blocker.reset();
      dirtyRef.current = false;
      blocker.proceed();
    });
  }, [blocker, ask]);

  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show their prompt only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);

  return {
    confirmLeave: useCallback(async () => {
      if (!dirtyRef.current) return true;
      const leave = await ask();
      if (leave) dirtyRef.current = false;
      return leave;
    }, [ask]),
  };
}
