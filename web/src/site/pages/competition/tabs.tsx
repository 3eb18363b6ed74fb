import { formatSize } from '@contest/shared';
import { DownloadOutlined, LinkOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, List, Result, Spin, Typography } from 'antd';
import { fileUrls } from '#src/api/files.ts';
import { publicQuestionApi, publicQuestionKeys } from '#src/api/questions.ts';
import { useCompetition } from './CompetitionLayout.tsx';
import { useCurrentUser } from '#src/common/auth.ts';
import { RealNameNote } from '../userCenter/RealNameGate.tsx';

/** Organiser content, sanitised by the server when it was saved. */
function RichText({ html, empty }: { html: string | null; empty: string }) {
  if (!html) return <Empty description={empty} />;
  return <div className="rich-text" dangerouslySetInnerHTML={{ __html: html }} />;
}

export function IntroduceTab() {
  const { competition } = useCompetition();
  return (
    <>
      {competition.summary && <Typography.Paragraph type="secondary">{competition.summary}</Typography.Paragraph>}
      <RichText html={competition.introduce} empty="暂无竞赛介绍" />
    </>
  );
}

export function InformationTab() {
  return <RichText html={useCompetition().competition.information} empty="暂无竞赛信息" />;
}

export function GuideTab() {
  return <RichText html={useCompetition().competition.guide} empty="暂无赛前指导" />;
}

export function ToolsTab() {
  const { trainingUrl } = useCompetition().competition;
  if (!trainingUrl) return <Empty description="暂未提供训练平台" />;
  return (
    <Result
      icon={<LinkOutlined />}
      title="训练平台"
      subTitle="在训练平台上熟悉数据与工具，训练平台将在新窗口打开。"
      extra={
        <Button type="primary" href={trainingUrl} target="_blank" rel="noopener noreferrer">
          进入训练平台
        </Button>
      }
    />
  );
}

export function QuestionTab() {
  const { competition, presets } = useCompetition();
  const { data: user } = useCurrentUser();
  // The organiser may keep the data for people who completed 实名认证 (the server refuses the others).
  const gated = Boolean(presets.find((p) => p.menuCode === 'QUES_AND_DATA')?.realName);
  const verified = Boolean(user?.realNameVerified);
  const { data, isLoading } = useQuery({
    queryKey: publicQuestionKeys.list(competition.id),
    queryFn: () => publicQuestionApi.list(competition.id),
  });
  if (isLoading) return <Spin />;
  if (!data?.length) return <Empty description="赛题尚未发布" />;
  return (
    <>
      {data.map((q) => (
        <section key={q.id} style={{ marginBottom: 32 }}>
          <Typography.Title level={4}>{q.title}</Typography.Title>
          <RichText html={q.content} empty="暂无赛题说明" />
          {q.files.length > 0 && gated && <RealNameNote menu="QUES_AND_DATA" verified={verified} />}
          {q.files.length > 0 && (
            <List
              header="数据文件"
              bordered
              dataSource={q.files}
              renderItem={(f) => (
                <List.Item
                  actions={[
                    gated && !verified ? (
                      <Typography.Text key="download" type="secondary">
                        <DownloadOutlined /> 实名认证后可下载
                      </Typography.Text>
                    ) : (
                      <a key="download" href={fileUrls.download(f.fileUri)} download>
                        <DownloadOutlined /> 下载
                      </a>
                    ),
                  ]}
                >
                  {f.name}（{formatSize(f.size)}）
                </List.Item>
              )}
            />
          )}
        </section>
      ))}
    </>
  );
}
