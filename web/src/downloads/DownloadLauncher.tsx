import { Suspense, lazy, useEffect, useState } from 'react';
import { useCurrentUser } from '../common/auth.ts';
import { onDrawerRequest, setDownloadUser } from './bus.ts';

/** The drawer, the store (Dexie) and the shells: fetched once a signed-in user's page is up, never on the first screen. */
const DownloadCenter = lazy(() => import('./DownloadDrawer.tsx'));

/**
 * What the layouts mount (spec §2.4): for a signed-in user, the download drawer with its floating button. Small on
 * purpose; requests from pages (open the drawer, show the download client dialog) reach the drawer through here.
 */
export function DownloadLauncher() {
  const { data: user } = useCurrentUser();
  const userId = user?.id ?? null;
  const [open, setOpen] = useState(false);
  const [clientDialog, setClientDialog] = useState(false);
  useEffect(() => setDownloadUser(userId), [userId]);
  useEffect(() => onDrawerRequest((request) => (request.type === 'open' ? setOpen(true) : setClientDialog(true))), []);
  if (userId === null) return null;
  return (
    <Suspense fallback={null}>
      <DownloadCenter userId={userId} open={open} onOpenChange={setOpen} clientDialog={clientDialog} onClientDialogChange={setClientDialog} />
    </Suspense>
  );
}
