/**
 * The audit log: one line per change a back-office user makes (ARCHITECTURE §4.6). Read on the system module's audit
 * page. What other modules may use: writing a line.
 */
export { writeAudit } from './repo.ts';
