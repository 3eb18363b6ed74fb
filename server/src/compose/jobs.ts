import * as certificates from '../modules/certificates/index.ts';
import * as desktopReleases from '../modules/desktop-releases/index.ts';
import * as notices from '../modules/notices/index.ts';
import * as orders from '../modules/orders/index.ts';
import * as outbox from '../modules/outbox/index.ts';
import * as reminders from '../modules/reminders/index.ts';
import * as similarity from '../modules/similarity/index.ts';
import * as testSubmissions from '../modules/test-submissions/index.ts';
import { bindJob, jobRegistry, type AnyJob } from '../jobs/define.ts';
import { scheduledJob } from '../jobs/schedule.ts';

/** Delivery of a published notice, `batch` recipients a run; tests bind it with a smaller batch. */
export const noticeDelivery = (batch = notices.DELIVERY_BATCH) =>
  bindJob(notices.deliverJob, { run: (deps, { noticeId }) => notices.deliverNext(deps, noticeId, batch) });

/**
 * Every kind of job the platform runs, each declared in its module's jobs.ts and bound here to what runs it, and
 * nowhere else: a worker runs exactly these (a job of a type not listed fails after its attempts).
 */
export const JOB_DEFINITIONS: readonly AnyJob[] = [
  bindJob(testSubmissions.scoreJob, {
    run: (deps, { submissionId }, { lane }) => testSubmissions.scoreQueued(deps, submissionId, lane),
    failed: (deps, { submissionId }) => testSubmissions.scoringGaveUp(deps, submissionId),
  }),
  bindJob(testSubmissions.rescoreJob, {
    run: (deps, { questionId, version }, { lane }) => testSubmissions.rescoreSome(deps, questionId, version, lane),
    failed: (deps, { questionId, version }) => testSubmissions.rescoringGaveUp(deps, questionId, version),
  }),
  bindJob(testSubmissions.releaseJob, {
    run: (deps, payload) => testSubmissions.releaseHeld(deps, payload),
    failed: (deps, { submissionId }) => testSubmissions.scoringGaveUp(deps, submissionId),
  }),
  bindJob(certificates.generateJob, {
    run: (deps, { questionId, origin }) => certificates.generate(deps, questionId, origin),
    failed: (deps, { questionId }, error) => certificates.generationGaveUp(deps, questionId, error),
  }),
  bindJob(notices.publishJob, { run: (deps, { noticeId }) => notices.publishScheduled(deps, noticeId) }),
  noticeDelivery(),
  bindJob(outbox.sendJob, {
    run: (deps, { messageId }) => outbox.deliver(deps, messageId),
    failed: (deps, { messageId }, error) => outbox.gaveUp(deps, messageId, error),
  }),
  bindJob(outbox.drainJob, { run: (deps, { after }) => outbox.drain(deps, after) }),
  bindJob(desktopReleases.buildJob, { run: (deps, payload) => desktopReleases.runBuild(deps, payload), failed: (deps) => desktopReleases.buildGaveUp(deps) }),
  bindJob(similarity.checkJob, {
    run: (deps, { questionId }) => similarity.check(deps, questionId),
    failed: (deps, { questionId }, error) => similarity.runGaveUp(deps, questionId, error),
  }),
  // Periodic sweeps: unpaid orders past their time are closed every minute.
  scheduledJob(orders.closeExpiredJob, 60_000, (deps) => orders.closeExpiredOrders(deps)),
  // Messages to many that a drain left behind (it ended just as more were queued) wait at most a minute.
  scheduledJob(outbox.drainSweepJob, 60_000, (deps) => outbox.drain(deps)),
  // Teams are reminded of submission deadlines 24 hours and 1 hour before.
  scheduledJob(reminders.remindJob, reminders.REMIND_EVERY_MS, (deps) => reminders.sendReminders(deps)),
  // 查重 starts by itself once a question's works deadline has passed.
  scheduledJob(similarity.sweepJob, similarity.SWEEP_EVERY_MS, (deps) => similarity.sweep(deps)),
];

export const JOBS = jobRegistry(JOB_DEFINITIONS);
