/**
 * Desktop releases: the download manager's installers, built or uploaded, and the page that offers them.
 * What other modules may use: nothing; its build job is registered through jobs.ts.
 */
export {};
