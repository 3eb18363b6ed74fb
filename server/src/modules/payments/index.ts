/**
 * Payments: gateways, callbacks and refunds. What other modules may use: the payment methods a competition can offer,
 * and a gateway's code for an order someone else decided the caller may pay (a school's 统一缴费 order).
 */
export { methods, payCode } from './service.ts';
