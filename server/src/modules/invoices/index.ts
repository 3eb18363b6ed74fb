/**
 * Invoices: titles, applications for a paid order, and finance issuing or refusing them.
 * What other modules may use: the platform's 发票配置 (competition readiness says whether it takes applications), and
 * applying for a school's one invoice of its 统一缴费 order (the coordinators module decides who acts for the school).
 */
export { applyForSchool, readConfig } from './service.ts';
