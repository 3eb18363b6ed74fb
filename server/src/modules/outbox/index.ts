/**
 * Outbox: emails and text messages written in the transaction of the event that causes them and delivered by
 * the job worker, once. What other modules may use: queueing an email or a text; the job and its handlers for the registry.
 */
export { deliver, gaveUp, queueEmail, queueSms, type Purpose, type QueuedEmail, type QueuedSms } from './service.ts';
export { sendJob } from './jobs.ts';
