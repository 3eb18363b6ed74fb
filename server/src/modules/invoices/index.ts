/**
 * Invoices: titles, applications for a paid order, and finance issuing or refusing them.
 * What other modules may use: nothing; no module calls into invoices.
 */
export {};
