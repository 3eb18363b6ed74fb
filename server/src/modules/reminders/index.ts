/**
 * Reminders: teams that still lack works or a scored test file are reminded of the deadline 24 hours and 1 hour before
 * it, in-app and by email and SMS. What other modules may use: the sweep and its job, for the registry.
 */
export { sendReminders } from './service.ts';
export { REMIND_EVERY_MS, remindJob } from './jobs.ts';
