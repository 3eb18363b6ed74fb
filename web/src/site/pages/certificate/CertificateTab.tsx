import { TrophyOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, List, Result, Spin, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { certificateApi, certificateKeys } from '#src/api/certificates.ts';
import { myGradeApi, myGradeKeys } from '#src/api/grades.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { goLogin } from '#src/common/http.ts';
import { useTeam } from '../../team.ts';
import { useCompetition } from '../competition/CompetitionLayout.tsx';
import { CertificateTable } from './CertificateTable.tsx';
import { showRank, showScore } from '../grade/format.ts';

/** `competition/:id/certificate`: what the team won and the certificates of its members and teachers. */
export default function CertificateTab() {
  const { competition } = useCompetition();
  const { data: user } = useCurrentUser();
  const { data, isLoading } = useTeam(competition.id);
  const teamId = data?.team?.id;
  const awards = useQuery({ queryKey: myGradeKeys.awards(teamId), enabled: Boolean(teamId), queryFn: () => myGradeApi.awards(teamId!) });
  const certificates = useQuery({
    queryKey: certificateKeys.team(teamId),
    enabled: Boolean(teamId),
    queryFn: () => certificateApi.team(teamId!),
  });
  if (!user)
    return (
      <Result
        status="info"
        title="登录后查看证书"
        extra={
          <Button type="primary" onClick={goLogin}>
            去登录
          </Button>
        }
      />
    );
  if (isLoading) return <Spin />;
  if (!data?.team) return <Result status="info" title="您还没有参加本竞赛" extra={<Link to={`/competition/${competition.id}/team`}>我的队伍</Link>} />;

  return (
    <>
      <Card type="inner" title={`获奖情况：${data.team.name}`} style={{ marginBottom: 16 }}>
        {awards.isLoading ? (
          <Spin />
        ) : !awards.data?.length ? (
          <Empty description="暂无获奖" />
        ) : (
          <List
            dataSource={awards.data}
            renderItem={(a) => (
              <List.Item data-testid="team-award">
                <List.Item.Meta
                  avatar={<TrophyOutlined style={{ fontSize: 22, color: '#faad14' }} />}
                  title={
                    <>
                      {a.questionTitle} <Tag color="gold">{a.awardName}</Tag>
                    </>
                  }
                  description={`最终成绩 ${showScore(a.finalScore)}　${a.rank === null ? '' : showRank(a.rank)}`}
                />
              </List.Item>
            )}
          />
        )}
      </Card>
      <Card type="inner" title="我的证书">
        <Typography.Paragraph type="secondary">队员与指导教师的证书。点击“查看”在新窗口打开证书，“下载”保存PDF文件。</Typography.Paragraph>
        <CertificateTable data={certificates.data} loading={certificates.isLoading} />
      </Card>
    </>
  );
}
