import { App } from 'antd';
import { useCallback, useEffect, useRef } from 'react';

/**
 * The back office's ways out of a page that are not the page's own buttons: the sidebar menu, the tag tabs (switching,
 * closing, and the tab actions' menu, whose "refresh" remounts the page too), the breadcrumb links and the user menu.
 * The back office runs under a HashRouter, which has no navigation blocker (useBlocker needs a data router), so a
 * click on one of these is held back here until the organiser has answered.
 */
const WAYS_OUT = [
  '.ant-layout-sider .ant-menu-item',
  '.admin-tags .ant-tabs-tab:not(.ant-tabs-tab-active)',
  '.admin-tags .ant-tabs-tab-remove',
  '.ant-breadcrumb a',
  '.ant-dropdown-menu-item',
].join(', ');

/**
 * Asks before the organiser leaves with unsaved changes: the browser's own prompt when the page unloads (reload,
 * closing the window, another address), a dialog for the back office's navigation. `confirmLeave` asks the same for
 * the page's own ways out (its tabs and buttons) and resolves true when there is nothing to lose or the organiser
 * chose to drop the changes.
 */
export function useUnsavedGuard(dirty: boolean, what: string) {
  const { modal } = App.useApp();
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

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

  useEffect(() => {
    if (!dirty) return;
    const onUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show their prompt only when returnValue is set.
      e.returnValue = '';
    };
    let letThrough = false;
    const onClick = (e: MouseEvent) => {
      const way = e.target instanceof Element ? e.target.closest<HTMLElement>(WAYS_OUT) : null;
      if (!way || letThrough) return;
      e.preventDefault();
      e.stopPropagation();
      void ask().then((leave) => {
        if (!leave) return;
        // The same click again, this time let through to the layout's own handler.
        letThrough = true;
        try {
          way.click();
        } finally {
          letThrough = false;
        }
      });
    };
    window.addEventListener('beforeunload', onUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty, ask]);

  return { confirmLeave: useCallback(async () => !dirtyRef.current || ask(), [ask]) };
}
