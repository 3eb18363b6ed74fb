import { z } from 'zod';
import { defineJob } from '../../jobs/define.ts';
import { buildGaveUp, runBuild } from './build.ts';

/** Builds the desktop client packages for `platformUrl` (see build.ts). */
export const buildJob = defineJob({
  id: 'client.build',
  payload: z.object({ platformUrl: z.string().min(1), requestedAt: z.string().min(1) }),
  run: (deps, payload) => runBuild(deps, payload),
  failed: (deps) => buildGaveUp(deps),
});
