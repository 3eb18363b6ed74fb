/**
 * Roles: permission sets for back-office users. What other modules may use: the dashboard's count, and the staff of an
 * organisation holding a code (who a message about work waiting for it goes to).
 */
export { countRoles, holdersActingFor, holdersOf } from './repo.ts';
