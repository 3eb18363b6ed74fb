import { SITE_CODES } from '@contest/shared';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createHashRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { EntryGate } from '../common/EntryGate.tsx';
import { Providers } from '../common/providers.tsx';
import { adminRoutes } from './routes.tsx';
import './admin.css';

/**
 * An address typed by hand (or any hash change made outside the router) adds a history entry the router did not
 * number, and without its number the router can tell neither how far a later back or forward goes nor hold it back
 * for unsaved changes. Such an entry is numbered as the one after the entry it was reached from, before the router
 * reads it (this listener is added first, so it runs first).
 */
let lastIndex = 0;
const indexOf = () => (window.history.state as { idx?: unknown } | null)?.idx;
window.addEventListener('popstate', () => {
  if (typeof indexOf() !== 'number') window.history.replaceState({ ...(window.history.state as object | null), idx: lastIndex + 1 }, '');
});

// A data router, so that a page with unsaved changes can hold back every navigation (useBlocker), the browser's
// back and forward buttons included.
const router = createHashRouter(adminRoutes);
const noteIndex = () => {
  const index = indexOf();
  if (typeof index === 'number') lastIndex = index;
};
noteIndex();
router.subscribe(noteIndex);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <EntryGate code={SITE_CODES.manager} name="管理后台">
        <RouterProvider router={router} />
      </EntryGate>
    </Providers>
  </StrictMode>,
);
