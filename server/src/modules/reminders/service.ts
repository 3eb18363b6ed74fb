import { SUBMISSION_NAMES, beijingMinute, type SubmissionKind } from '@contest/shared';
import type { Deps } from '../../context.ts';
import { jobsQueued } from '../../jobs/define.ts';
import { submissionWindowOf } from '../competitions/index.ts';
import { notify } from '../notices/index.ts';
import { queueForUsers } from '../outbox/index.ts';
import * as repo from './repo.ts';

/** The windows before a deadline in which teams are reminded, latest first. */
const WINDOWS = [
  { key: '1h', ms: 3600_000, text: '1小时' },
  { key: '24h', ms: 24 * 3600_000, text: '24小时' },
] as const;

/**
 * Reminds teams of each open submission deadline (提交作品, 提交测试) 24 hours and 1 hour before it: the approved teams
 * that have no works, or no scored test file, get an in-app message and, per their preferences and verified addresses,
 * an email and a text. A sweep (every five minutes, by the job runner) finds the windows it is in; each team is
 * reminded once per deadline and window, on each channel, however many workers sweep at once (reminders_sent's key
 * for the in-app message, the outbox's idempotency keys for email and SMS). A sweep that ran late sends the window it
 * is in (the 1-hour one, past it), not the one it missed.
 */
export async function sendReminders(deps: Deps) {
  const now = deps.clock.now();
  const at = now.toISOString();
  let queued = 0;
  for (const c of await repo.openCompetitions(deps.db, at)) {
    for (const kind of Object.keys(SUBMISSION_NAMES) as SubmissionKind[]) {
      const w = await submissionWindowOf(deps.db, c.id, kind);
      if (!w.enabled || !w.end) continue;
      const left = Date.parse(w.end) - now.getTime();
      const window = WINDOWS.find((x) => left > 0 && left <= x.ms);
      if (!window) continue;
      const missing = (await repo.teamsMissing(deps.db, c.id, kind)).map((r) => r.teamId);
      if (!missing.length) continue;
      const what = SUBMISSION_NAMES[kind];
      const deadline = beijingMinute(w.end);
      const title = `${c.name}：${what}将在${window.text}内截止`;
      const lacking = kind === 'SUBMIT_WORKS' ? '您的队伍还没有提交作品' : '您的队伍还没有评分成功的测试文件';
      const content = `${lacking}。${what}截止时间：${deadline}（北京时间），截止后不能再提交，请尽快完成。`;
      const key = `reminder:${c.id}:${kind}:${w.end}:${window.key}`;
      // The teams this sweep claims and their emails and texts are written together: a team is claimed with its messages.
      const users = await deps.db.transaction().execute(async (trx) => {
        const teams = await repo.claimTeams(trx, { competitionId: c.id, kind, deadline: w.end!, window: window.key, teamIds: missing, now: at });
        const userIds = await repo.memberIds(trx, teams);
        const common = { kind: 'reminder' as const, userIds, key, orgId: c.orgId };
        const link = deps.config.publicUrl ? `去提交：${deps.config.publicUrl}/competition/${c.id}/introduce` : '请登录竞赛平台提交。';
        queued += await queueForUsers(trx, now, {
          ...common,
          channel: 'email',
          email: { subject: title, text: [title, '', content, '', link, '', '不想再收到截止提醒邮件？一键退订：{{unsubscribe}}'].join('\n') },
        });
        queued += await queueForUsers(trx, now, {
          ...common,
          channel: 'sms',
          sms: { template: 'reminder', params: { competition: c.name.slice(0, 20), deadline } },
        });
        return userIds;
      });
      // In-app, to the same members (an automatic message never fails the sweep).
      if (users.length) await notify(deps, users, { title, content, source: 'reminder' });
    }
  }
  if (queued) jobsQueued();
}
