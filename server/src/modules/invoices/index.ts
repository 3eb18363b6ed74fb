/**
 * Invoices: titles, applications for a paid order, and finance issuing or refusing them.
 * What other modules may use: the platform's 发票配置 (competition readiness says whether it takes applications).
 */
export { readConfig } from './service.ts';
