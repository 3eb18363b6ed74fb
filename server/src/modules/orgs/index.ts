/** Organisations and partner applications. What other modules may use: the counts and choices of organisations. */
export { countOrganisations, organisationOptions } from './repo.ts';
