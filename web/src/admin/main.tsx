import { SITE_CODES } from '@contest/shared';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HashRouter } from 'react-router';
import { EntryGate } from '../common/EntryGate.tsx';
import { Providers } from '../common/providers.tsx';
import { AdminRoutes } from './routes.tsx';
import './admin.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <EntryGate code={SITE_CODES.manager} name="管理后台">
        <HashRouter>
          <AdminRoutes />
        </HashRouter>
      </EntryGate>
    </Providers>
  </StrictMode>,
);
