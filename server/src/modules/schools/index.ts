/**
 * Schools: the platform's list of schools (issue 36). What other modules may use: what a profile's school becomes (a
 * record picked, or free text linked to the record of the same name), and the record a school's name stands for.
 */
export { listedSchool, profileSchool } from './service.ts';
