/**
 * Outbox: emails and text messages written in the transaction of the event that causes them and delivered by
 * the job worker, once. What other modules may use: queueing an email or a text, or one to each of many users (by their preferences); what a notice's messages became; how many a query of users would reach; the job and its handlers for the registry.
 */
export {
  deliver,
  drain,
  gaveUp,
  noticeMessages,
  queueEmail,
  queueForUsers,
  queueSms,
  reachable,
  type Purpose,
  type QueuedEmail,
  type QueuedSms,
} from './service.ts';
export { drainJob, drainSweepJob, sendJob } from './jobs.ts';
