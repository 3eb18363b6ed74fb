import { choiceRefusal, submissionWindow, windowRefusal, type PublicQuestion } from '@contest/shared';
import { CheckCircleFilled } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Result, Space, Spin, Tag, Tooltip } from 'antd';
import { Link } from 'react-router';
import { publicQuestionApi, publicQuestionKeys } from '#src/api/questions.ts';
import { teamApi } from '#src/api/teams.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { goLogin, sysTime } from '#src/common/http.ts';
import { formatMinute } from '#src/common/time.ts';
import { Countdown } from '#src/common/Countdown.tsx';
import { useReloadTeam, useTeam } from '../../team.ts';
import { useCompetition } from '../competition/CompetitionLayout.tsx';

export const usePublicQuestions = (competitionId: number) =>
  useQuery({ queryKey: publicQuestionKeys.list(competitionId), queryFn: () => publicQuestionApi.list(competitionId) });

/**
 * `competition/:id/choice`: the leader picks the team's question while the choice window is open (the shared rule: the
 * CHOICE_SET times, else a 选题 stage or the works submission stage, else the competition's end). The tab stays in view
 * afterwards so the team still sees what it chose, with the deadline that closed the choice.
 */
export default function ChoiceTab() {
  const { competition, presets } = useCompetition();
  const { data: user } = useCurrentUser();
  const { data, isLoading } = useTeam(competition.id);
  const questions = usePublicQuestions(competition.id);
  const reload = useReloadTeam(competition.id);
  const { message, modal } = App.useApp();
  if (!user)
    return (
      <Result
        status="info"
        title="登录后选择赛题"
        extra={
          <Button type="primary" onClick={goLogin}>
            去登录
          </Button>
        }
      />
    );
  if (isLoading || questions.isLoading) return <Spin />;
  const team = data?.team;
  if (!team) return <Result status="info" title="请先报名参赛" extra={<Link to={`/competition/${competition.id}/team`}>我的队伍</Link>} />;
  const leader = team.leaderId === user.id;
  const chosen = team.choiceQuestionList[0]?.questionId;
  if (!questions.data?.length) return <Empty description="赛题尚未发布" />;
  const choiceWindow = submissionWindow(competition, competition.stages, presets, 'CHOICE_SET');
  const refusal = windowRefusal(choiceWindow, sysTime());
  // Offered only when it can succeed: the registration approved (and paid, with a fee), said on the button otherwise.
  const notYet = choiceRefusal(team.register, competition.fee);

  const choose = (q: PublicQuestion) =>
    modal.confirm({
      title: '提示',
      content: `确定为队伍选择赛题“${q.title}”吗？选题开放期间可以更改。`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await teamApi.chooseQuestion(team.id, q.id);
          void message.success('已选择赛题');
        } catch {
          // Refused (the window closed or the registration changed meanwhile): the server's reason is already shown;
          // the dialog closes and the page shows the team as it is now.
        }
        await reload();
      },
    });

  return (
    <>
      <Alert
        type={refusal || notYet ? 'warning' : 'info'}
        showIcon
        style={{ marginBottom: 16 }}
        data-testid="choice-window"
        message={
          refusal ?? (
            <>
              {`${notYet ? `${notYet}。` : leader ? '' : '赛题由队长选择。'}选题截止时间 ${formatMinute(choiceWindow.end!)}（北京时间），截止前可以更改。`}
              {/* At the deadline the team is asked again, and the tab, drawn again, says the choice has closed. */}
              <Countdown deadline={choiceWindow.end!} style={{ marginInlineStart: 8 }} onExpire={() => void reload()} />
            </>
          )
        }
      />
      <Space direction="vertical" style={{ width: '100%' }}>
        {questions.data.map((q) => (
          <Card
            key={q.id}
            // A long title wraps, and the button goes under it on a phone.
            className="wrap-card-head"
            title={
              <Space>
                {q.title}
                {chosen === q.id && (
                  <Tag color="success" icon={<CheckCircleFilled />} data-testid="chosen-question">
                    已选择
                  </Tag>
                )}
              </Space>
            }
            extra={
              leader &&
              !refusal &&
              chosen !== q.id && (
                <Tooltip title={notYet}>
                  <Button type="primary" disabled={Boolean(notYet)} onClick={() => choose(q)}>
                    选择该赛题
                  </Button>
                </Tooltip>
              )
            }
          >
            {q.content ? <div className="rich-text" dangerouslySetInnerHTML={{ __html: q.content }} /> : <span>暂无描述</span>}
          </Card>
        ))}
      </Space>
    </>
  );
}
