import {
  fenToYuan,
  judgedByExperts,
  presetOpen,
  registrationRefusal,
  scoredAutomatically,
  type Judging,
  type MenuCode,
  type Preset,
  type Stage,
  eligibilityLines,
} from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Descriptions, Result, Row, Spin, Statistic, Steps, Tabs, Typography } from 'antd';
import { Link, Navigate, Outlet, useLocation, useNavigate, useOutletContext, useParams } from 'react-router';
import { publicCompetitionApi, publicCompetitionKeys, type CompetitionDetail } from '#src/api/competitions.ts';
import { editionApi, editionKeys } from '#src/api/editions.ts';
import { publicityApi, publicityKeys } from '#src/api/publicity.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { goLogin, sysTime } from '#src/common/http.ts';
import { useTeam } from '../../team.ts';
import { formatMinute } from '#src/common/time.ts';
import { PhaseTag, phaseOf } from '#src/common/PhaseTag.tsx';
import { Countdown } from '#src/common/Countdown.tsx';
import { Suspense, lazy } from 'react';

/** The competition's announcements (「公告」), only for a logged-in user who has some. */
const CompetitionNotices = lazy(() => import('./CompetitionNotices.tsx'));

export type { CompetitionDetail };

/**
 * The competition's sub-menu (spec §2.1). `introduce` is always there; each other tab appears only while
 * its menu preset is enabled and inside its window, by the server's clock.
 */
export const COMPETITION_TABS: { key: string; label: string; menuCode?: MenuCode; anyTime?: boolean }[] = [
  { key: 'introduce', label: '竞赛介绍' },
  { key: 'question', label: '赛题与数据', menuCode: 'QUES_AND_DATA' },
  { key: 'information', label: '竞赛信息', menuCode: 'COMP_INFO' },
  { key: 'guide', label: '赛前指导', menuCode: 'BEFORE_GUIDE' },
  { key: 'tools', label: '训练平台', menuCode: 'TRAINING_PLATFORM' },
  // The team stays reachable after registration closes, as long as the competition registers at all.
  { key: 'team', label: '我的队伍', menuCode: 'REG_SET', anyTime: true },
  { key: 'choice', label: '选择赛题', menuCode: 'CHOICE_SET', anyTime: true },
  { key: 'works', label: '提交作品', menuCode: 'SUBMIT_WORKS', anyTime: true },
  // The test tab holds the boards too: it stays once submission has closed (its upload then says why it is closed).
  { key: 'test', label: '提交测试', menuCode: 'SUBMIT_TEST', anyTime: true },
  // The organiser opens these once grades are confirmed and certificates generated; the window bounds them too.
  { key: 'grade', label: '我的成绩', menuCode: 'GRADE_SET' },
  { key: 'certificate', label: '我的证书', menuCode: 'CERTIFICATE_SET' },
];

/**
 * The tabs open now. A team that chose a question goes through the submissions its judging has (issue 33): no works
 * for a question ranked by its private board, no tests for one judged by experts alone.
 */
export function visibleTabs(presets: Preset[], now: Date, judging?: Judging) {
  const skipped = (key: string) => (key === 'works' && judging && !judgedByExperts(judging)) || (key === 'test' && judging && !scoredAutomatically(judging));
  return COMPETITION_TABS.filter(
    (t) => !skipped(t.key) && (!t.menuCode || presets.some((p) => p.menuCode === t.menuCode && (t.anyTime ? p.enable : presetOpen(p, now)))),
  );
}

export function useCompetition() {
  return useOutletContext<{ competition: CompetitionDetail; presets: Preset[] }>();
}

/** The hero's call to action: register while registration is open, else the way to one's team. */
function RegisterAction({ competition, presets }: { competition: CompetitionDetail; presets: Preset[] }) {
  const { data: user } = useCurrentUser();
  const team = useTeam(competition.id);
  const reg = presets.find((p) => p.menuCode === 'REG_SET');
  if (!reg?.enable) return null;
  if (team.data?.team) {
    return (
      <Link to={`/competition/${competition.id}/team`}>
        <Button size="large">我的队伍</Button>
      </Link>
    );
  }
  if (registrationRefusal(competition, competition.phase.code, sysTime())) return null;
  return user ? (
    <Link to={`/registration/${competition.id}`}>
      <Button type="primary" size="large">
        立即报名
      </Button>
    </Link>
  ) : (
    <Button type="primary" size="large" onClick={goLogin}>
      登录后报名
    </Button>
  );
}

/** A stage's start and end to the minute, Beijing time: a deadline at 12:00 is not the day's end. */
export const stageTimes = (s: Pick<Stage, 'startDate' | 'endDate'>) =>
  `${formatMinute(s.startDate)}${s.endDate ? ` 至 ${formatMinute(s.endDate)}` : ' 起'}（北京时间）`;

function StageTimeline({ stages, activeStageId }: { stages: Stage[]; activeStageId: number }) {
  if (!stages.length) return null;
  const current = stages.findIndex((s) => s.id === activeStageId);
  return (
    <Steps
      size="small"
      current={current}
      style={{ marginTop: 16 }}
      items={stages.map((s) => ({ title: s.name, description: <span data-testid="stage-times">{stageTimes(s)}</span> }))}
    />
  );
}

export default function CompetitionLayout() {
  const { competitionId } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const valid = /^\d+$/.test(competitionId ?? '');
  const id = Number(competitionId);
  const competition = useQuery({ queryKey: publicCompetitionKeys.detail(id), enabled: valid, queryFn: () => publicCompetitionApi.detail(id) });
  const presets = useQuery({ queryKey: publicCompetitionKeys.presets(id), enabled: valid, queryFn: () => publicCompetitionApi.presets(id) });
  const memberNum = useQuery({ queryKey: publicCompetitionKeys.memberNum(id), enabled: valid, queryFn: () => publicCompetitionApi.memberNum(id) });
  const team = useTeam(valid ? id : 0);
  const results = useQuery({ queryKey: publicityKeys.results(id), enabled: valid, queryFn: () => publicityApi.results(id), staleTime: 60_000, retry: false });
  const editions = useQuery({ queryKey: editionKeys.editions(id), enabled: valid, queryFn: () => editionApi.editions(id), staleTime: 60_000 });

  // Spec §2.1: the competition id is digits; anything else is an unknown page.
  if (!valid) return <Navigate to="/404" replace />;
  if (competition.isLoading || presets.isLoading) return <Spin style={{ display: 'block', margin: '120px auto' }} />;
  if (!competition.data || !presets.data) {
    return <Result status="404" title="竞赛不存在或尚未上线" extra={<Link to="/competitionList">返回竞赛列表</Link>} />;
  }
  const c = competition.data;
  const { next } = phaseOf(c, sysTime());
  const tabs = visibleTabs(presets.data, sysTime(), team.data?.team?.choiceQuestionList[0]?.judging);
  const active = pathname.split('/')[3] ?? 'introduce';
  if (!tabs.some((t) => t.key === active)) {
    return <Result status="403" title="该栏目暂未开放" extra={<Link to={`/competition/${id}/introduce`}>返回竞赛介绍</Link>} />;
  }
  return (
    <>
      <div className="comp-hero">
        <Row gutter={24} align="middle">
          <Col xs={24} md={16}>
            <Typography.Title level={2} style={{ marginTop: 0 }}>
              {c.name} <PhaseTag competition={c} next />
              {next && <Countdown deadline={next.at} style={{ marginInlineStart: 8 }} />}
            </Typography.Title>
            <Descriptions column={{ xs: 1, md: 2 }} size="small">
              <Descriptions.Item label="竞赛品牌">
                <Link to={`/competitionList/${c.brandId}`}>{c.brandShortName}</Link>
              </Descriptions.Item>
              <Descriptions.Item label="主办单位">{c.orgName}</Descriptions.Item>
              <Descriptions.Item label="报名时间">
                {formatMinute(c.regStartTime)} 至 {formatMinute(c.regEndTime)}
              </Descriptions.Item>
              <Descriptions.Item label="竞赛结束">{formatMinute(c.endTime)}</Descriptions.Item>
              <Descriptions.Item label="报名费">{c.fee ? `¥${fenToYuan(c.fee)}` : '免费'}</Descriptions.Item>
              <Descriptions.Item label="组队">
                {c.allowIndividual ? `可个人参赛，` : ''}每队{c.minMembers}至{c.maxMembers}人
              </Descriptions.Item>
              {(results.data?.state === 'open' || results.data?.state === 'closed') && (
                <Descriptions.Item label="获奖名单" span="filled">
                  <Link to={`/results/${c.id}`} data-testid="results-link">
                    {results.data.state === 'open' ? '成绩公示中，查看名单或提出异议' : '查看最终获奖名单'}
                  </Link>
                </Descriptions.Item>
              )}
              {(editions.data?.length ?? 0) > 1 && (
                <Descriptions.Item label="往届" span="filled">
                  <div data-testid="editions" style={{ display: 'flex', flexWrap: 'wrap', columnGap: 12 }}>
                    {editions.data!.map((e) =>
                      e.current ? (
                        <Typography.Text key={e.id} strong>
                          第{e.edition}届（本届）
                        </Typography.Text>
                      ) : (
                        <Link key={e.id} to={`/competition/${e.id}/introduce`} title={e.name}>
                          第{e.edition}届 {e.name}
                        </Link>
                      ),
                    )}
                  </div>
                </Descriptions.Item>
              )}
              {eligibilityLines(c.eligibility).length > 0 && (
                <Descriptions.Item label="参赛资格" span="filled">
                  <div data-testid="eligibility-summary" style={{ marginBottom: 12 }}>
                    {eligibilityLines(c.eligibility).map((l) => (
                      <div key={l}>{l}</div>
                    ))}
                  </div>
                </Descriptions.Item>
              )}
            </Descriptions>
          </Col>
          <Col xs={24} md={8}>
            <Row gutter={16}>
              <Col span={12}>
                <Statistic title="参赛队伍" value={c.teamNum} />
              </Col>
              <Col span={12}>
                <Statistic title="参赛人数" value={memberNum.data ?? 0} />
              </Col>
            </Row>
            <div style={{ marginTop: 16 }}>
              <RegisterAction competition={c} presets={presets.data} />
            </div>
          </Col>
        </Row>
        <StageTimeline stages={c.stages} activeStageId={c.activeStageId} />
      </div>
      <Suspense fallback={null}>
        <CompetitionNotices competitionId={c.id} />
      </Suspense>
      <Card>
        <Tabs activeKey={active} items={tabs.map((t) => ({ key: t.key, label: t.label }))} onChange={(key) => navigate(`/competition/${id}/${key}`)} />
        <Outlet context={{ competition: c, presets: presets.data }} />
      </Card>
    </>
  );
}
