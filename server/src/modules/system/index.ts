/**
 * System: the back-office home (to-do counts and figures), the audit log page, configuration and health.
 * What other modules may use: nothing; it reads the others through their indexes.
 */
export {};
