/**
 * Desktop releases: the download manager's installers, built or uploaded, and the page that offers them.
 * What other modules may use: nothing; the job registry (compose/jobs.ts) binds its build job to what runs it.
 */
export { buildJob } from './jobs.ts';
export { buildGaveUp, runBuild } from './build.ts';
