/**
 * Teams: leaders, members and invitations. What other modules may use: a team the caller may read.
 */
export { readableTeam } from './service.ts';
