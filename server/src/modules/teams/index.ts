/**
 * Teams: leaders, members and invitations. What other modules may use: a team the caller may read, and whether the
 * caller is one of its members or staff of its competition.
 */
export { memberOrOrganiser, readableTeam } from './service.ts';
export { importRoster } from './roster.ts';
