import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { captureDesktopLaunch } from '../common/desktopLaunch.ts';
import { Providers } from '../common/providers.tsx';
import { SiteRoutes } from './routes.tsx';
import './site.css';

// Spec §2.1, §7: the desktop client opens competitionList with electron=app, and signs in again at /login?state=app.
// What it hands over is kept before the first request, so that the app's calls carry its token from the start.
captureDesktopLaunch();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <BrowserRouter>
        <SiteRoutes />
      </BrowserRouter>
    </Providers>
  </StrictMode>,
);
