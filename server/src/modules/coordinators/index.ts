/**
 * School coordinators (院校负责人, issue 36 item 2): appointments, the school's dashboard, its level of 两级审核 and
 * the import of its students and teams. Other modules use nothing of it: teams read who coordinates a school
 * (to tell them of a registration waiting) in their own repo.
 */
export {};
