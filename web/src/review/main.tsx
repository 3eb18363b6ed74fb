import { SITE_CODES } from '@contest/shared';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HashRouter } from 'react-router';
import { EntryGate } from '../common/EntryGate.tsx';
import { Providers } from '../common/providers.tsx';
import { ReviewRoutes } from './routes.tsx';
import './review.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <EntryGate code={SITE_CODES.review} name="评审中心">
        <HashRouter>
          <ReviewRoutes />
        </HashRouter>
      </EntryGate>
    </Providers>
  </StrictMode>,
);
