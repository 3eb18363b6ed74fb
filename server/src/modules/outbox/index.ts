/**
 * Outbox: emails (and, next, text messages) written in the transaction of the event that causes them and delivered by
 * the job worker, once. What other modules may use: queueing an email; the job and its handlers for the registry.
 */
export { deliver, gaveUp, queueEmail, type Purpose, type QueuedEmail } from './service.ts';
export { sendJob } from './jobs.ts';
