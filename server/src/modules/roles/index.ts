/**
 * Roles: permission sets for back-office users. What other modules may use: the dashboard's count.
 */
export { countRoles } from './repo.ts';
