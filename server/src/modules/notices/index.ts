/**
 * Notices and each user's box. What other modules may use: automatic personal messages (`notify`), the user ids of
 * teams' members they go to, the order messages, and word to the staff of what waits for them (`tellStaff`).
 */
export { notify, orderMessages, teamUserIds, tellStaff } from './service.ts';
export { DELIVERY_BATCH, deliverJob, publishJob } from './jobs.ts';
export { deliverNext, publishScheduled } from './service.ts';
