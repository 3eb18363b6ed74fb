import { competitionPhase, nextDeadlineText, type CompetitionPhase, type LifecycleCompetition, type PhaseCode } from '@contest/shared';
import { Space, Tag } from 'antd';

const PHASE_COLORS: Record<PhaseCode, string> = {
  draft: 'default',
  audit: 'processing',
  upcoming: 'default',
  registration: 'green',
  inProgress: 'blue',
  submissionClosed: 'orange',
  review: 'purple',
  published: 'gold',
  archived: 'default',
};

type WithOptionalPhase = LifecycleCompetition & { phase?: CompetitionPhase };

/**
 * The competition's phase as the server computed it (lifecycle.ts, with its stages, presets and grades); a reply without
 * one is derived from its dates alone by the same shared function.
 */
export const phaseOf = (c: WithOptionalPhase, now: Date = new Date()): CompetitionPhase => c.phase ?? competitionPhase(c, [], {}, now);

/** The phase name (with the running stage) and, when asked, the next deadline: 「进行中 · 初赛」「提交截止 03-20 12:00」. */
export function PhaseTag({ competition, next = false }: { competition: WithOptionalPhase; next?: boolean }) {
  const p = phaseOf(competition);
  const deadline = next ? nextDeadlineText(p) : '';
  return (
    <Space size={4} wrap className="phase-tag">
      <Tag color={PHASE_COLORS[p.code]} data-testid="phase-tag" style={{ marginInlineEnd: 0 }}>
        {p.stageName ? `${p.name} · ${p.stageName}` : p.name}
      </Tag>
      {deadline && (
        <span className="phase-next" data-testid="phase-next" style={{ fontSize: 12, color: 'rgba(0,0,0,0.55)' }}>
          {deadline}
        </span>
      )}
    </Space>
  );
}
