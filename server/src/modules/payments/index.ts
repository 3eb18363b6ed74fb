/**
 * Payments: gateways, callbacks and refunds. What other modules may use: the payment methods a competition can offer.
 */
export { methods } from './service.ts';
