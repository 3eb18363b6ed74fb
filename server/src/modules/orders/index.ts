/**
 * Orders: what a team owes for a competition, paid online or by transfer. What other modules may use: opening a team's
 * order, reading one the caller may see, and the rows and state changes payments make when a gateway answers.
 */
export { openOrder, teamOrder, teamPaysOrder } from './service.ts';
export {
  closeSchoolOrder,
  findPayable,
  findSchoolOrder,
  flagPayableRefund,
  markPaid,
  openSchoolOrder,
  schoolOrdersOf,
  schoolVoucher,
  type Payable,
} from './service.ts';
export { closeExpiredJob } from './jobs.ts';
export { closeExpiredOrders } from './service.ts';
