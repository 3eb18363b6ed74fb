/**
 * School coordinators (院校负责人, issue 36 item 2): appointments, the school's dashboard and its level of 两级审核.
 * What other modules may use: who coordinates a school in a competition (teams tell them of a registration waiting).
 */
export { coordinatorIds } from './service.ts';
