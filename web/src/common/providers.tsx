// antd 5's static message and Modal.confirm need this to render under React 19.
import '@ant-design/v5-patch-for-react-19';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { ReactNode } from 'react';
import { ErrorBoundary } from './ErrorBoundary.tsx';

dayjs.locale('zh-cn');

/** Theme colour of spec §9. */
export const THEME_COLOR = '#1890ff';

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false } },
});

/**
 * People who asked their system for less motion (vestibular disorders, slow machines) get dialogs, menus and tabs that
 * appear at once, without antd's zoom and slide.
 */
const reducedMotion = typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: THEME_COLOR, motion: !reducedMotion } }}>
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <ErrorBoundary>{children}</ErrorBoundary>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
