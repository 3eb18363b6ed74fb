/**
 * Test (prediction) submissions, by concern: submitting (submitting.ts), the boards (boards.ts), scoring and its jobs
 * (scoring.ts) and the organisers' views (organiser.ts). The routes and jobs read the module's rules here.
 */
export * from './submitting.ts';
export * from './boards.ts';
export * from './scoring.ts';
export * from './organiser.ts';
