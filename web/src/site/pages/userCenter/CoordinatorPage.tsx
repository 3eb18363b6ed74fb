import { PAY_STATUS_TEXT, REGISTER_STATUS, REGISTER_STATUS_TEXT, SCHOOL_STATUS, SCHOOL_STATUS_TEXT, type SchoolTeam } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Card, Col, Empty, Flex, Form, Grid, Input, List, Row, Select, Space, Spin, Statistic, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { coordinatorApi, coordinatorKeys, coordinatorUrls } from '#src/api/coordinators.ts';
import { DownloadButton } from '#src/common/DownloadButton.tsx';
import { ActionLink } from '#src/common/ActionLink.tsx';
import { FormModal } from '#src/common/FormModal.tsx';
import { RosterImport } from './RosterImport.tsx';
import { SchoolOrders } from './SchoolOrders.tsx';

const STATUS_COLORS: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error' };

/** A team's review state: the school's level first where the competition has 两级审核. */
function ReviewState({ t }: { t: SchoolTeam }) {
  if (t.status === null) return <>—</>;
  const atSchool = t.status === REGISTER_STATUS.pending && t.schoolStatus === SCHOOL_STATUS.pending;
  const text = atSchool
    ? SCHOOL_STATUS_TEXT[SCHOOL_STATUS.pending]
    : t.status === REGISTER_STATUS.pending && t.schoolStatus === SCHOOL_STATUS.approved
      ? '学校已通过，待主办方审核'
      : REGISTER_STATUS_TEXT[t.status];
  return (
    <Space direction="vertical" size={0}>
      <Tag color={atSchool ? 'warning' : STATUS_COLORS[t.status]} data-testid="school-team-state">
        {text}
      </Tag>
      {t.status === REGISTER_STATUS.rejected && t.reason && <Typography.Text type="secondary">{t.reason}</Typography.Text>}
    </Space>
  );
}

/** A team's payment, and whether the school pays for it (统一缴费). */
const payText = (t: SchoolTeam) =>
  t.payStatus === null ? '免费' : `${PAY_STATUS_TEXT[t.payStatus]}${t.schoolOrderNo && t.payStatus === 0 ? '（统一缴费中）' : ''}`;

const results = (t: SchoolTeam) =>
  t.results.length ? t.results.map((g) => `${g.questionTitle}：${g.awardName ?? (g.rank ? `第${g.rank}名` : '—')}`).join('；') : '—';

/**
 * `/userCenter/school`: 院校负责人. The school's teams in each competition the caller's appointments cover, with their
 * registration, payment, submissions and results; where the competition has 两级审核, the school's review of them.
 */
export default function CoordinatorPage() {
  const { message } = App.useApp();
  const phone = Grid.useBreakpoint().md === false;
  const queryClient = useQueryClient();
  const mine = useQuery({ queryKey: coordinatorKeys.mine, queryFn: coordinatorApi.mine });
  const [picked, setPicked] = useState<{ schoolId: number; competitionId: number } | null>(null);
  const [rejecting, setRejecting] = useState<SchoolTeam | null>(null);
  const first = mine.data?.find((s) => s.competitions.length);
  const current = picked ?? (first ? { schoolId: first.schoolId, competitionId: first.competitions[0]!.id } : null);
  const dashboard = useQuery({
    queryKey: coordinatorKeys.dashboard(current?.competitionId ?? 0, current?.schoolId ?? 0),
    enabled: Boolean(current),
    queryFn: () => coordinatorApi.dashboard(current!.competitionId, current!.schoolId),
  });
  if (mine.isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (!mine.data?.length)
    return (
      <Card title="院校负责人">
        <Empty description="您还不是任何学校的院校负责人；由竞赛主办方或平台指定" />
      </Card>
    );

  const options = mine.data.flatMap((s) =>
    s.competitions.map((c) => ({ value: `${s.schoolId}:${c.id}`, label: `${s.schoolName} · ${c.name}（${c.teams}支队伍）` })),
  );
  const d = dashboard.data;
  const reload = () => queryClient.invalidateQueries({ queryKey: coordinatorKeys.all });
  async function approve(t: SchoolTeam) {
    await coordinatorApi.audit(t.registerId!, 'approve');
    void message.success(`已通过“${t.teamName}”的学校审核，报名将交主办方审核`);
    await reload();
  }
  const action = (t: SchoolTeam) =>
    t.status === REGISTER_STATUS.pending && t.schoolStatus === SCHOOL_STATUS.pending ? (
      <Space>
        <ActionLink onClick={() => approve(t)}>通过</ActionLink>
        <ActionLink danger onClick={() => setRejecting(t)}>
          驳回
        </ActionLink>
      </Space>
    ) : null;

  return (
    <Card title="院校负责人">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        {options.length ? (
          <Flex vertical gap={12}>
            <Select
              aria-label="学校与竞赛"
              style={{ width: '100%', maxWidth: 560 }}
              value={current ? `${current.schoolId}:${current.competitionId}` : undefined}
              options={options}
              onChange={(v: string) => {
                const [schoolId, competitionId] = v.split(':').map(Number);
                setPicked({ schoolId: schoolId!, competitionId: competitionId! });
              }}
            />
            {current && (
              <Flex wrap gap={8}>
                <RosterImport competitionId={current.competitionId} schoolId={current.schoolId} onImported={() => void reload()} />
                {d && d.summary.certificates > 0 && (
                  <DownloadButton type="default" size="middle" width={220} url={coordinatorUrls.certificates(current.competitionId, current.schoolId)}>
                    下载本校全部证书
                  </DownloadButton>
                )}
              </Flex>
            )}
          </Flex>
        ) : (
          <Empty description="您负责的范围内暂无已上线的竞赛" />
        )}
        {dashboard.isLoading && current && <Spin />}
        {d && (
          <>
            {d.schoolAudit && (
              <Alert type="info" showIcon message="本竞赛实行两级审核：本校队伍的报名先由您审核，通过后再由主办方审核；驳回须填写原因，队伍会收到通知。" />
            )}
            <Row gutter={[16, 16]}>
              {[
                ['队伍', d.summary.teams],
                ['待学校审核', d.summary.waitingForSchool],
                ['审核通过', d.summary.approved],
                ['已缴费', d.summary.paid],
                ['已提交', d.summary.withWorks],
                ['获奖', d.summary.awarded],
              ].map(([label, value]) => (
                <Col xs={8} md={4} key={label}>
                  <Statistic title={label} value={value} />
                </Col>
              ))}
            </Row>
            {d.fee > 0 && <SchoolOrders competitionId={current!.competitionId} schoolId={current!.schoolId} teams={d.teams} fee={d.fee} />}
            {phone ? (
              <List<SchoolTeam>
                dataSource={d.teams}
                locale={{ emptyText: '本校暂无队伍报名' }}
                renderItem={(t) => (
                  <List.Item key={t.teamId} className="order-card" data-testid="school-team-card">
                    <Space direction="vertical" size={4} style={{ width: '100%' }}>
                      <Typography.Text strong>
                        {t.teamName} <Typography.Text type="secondary">{t.teamNo}</Typography.Text>
                      </Typography.Text>
                      <span>队员：{t.members.join('、')}</span>
                      {t.groupName && <span>组别：{t.groupName}</span>}
                      <ReviewState t={t} />
                      <span>缴费：{payText(t)}</span>
                      <span>
                        提交：作品{t.works}份，测试{t.tests}次
                      </span>
                      <span>成绩：{results(t)}</span>
                      {action(t)}
                    </Space>
                  </List.Item>
                )}
              />
            ) : (
              <Table<SchoolTeam>
                rowKey="teamId"
                size="small"
                dataSource={d.teams}
                pagination={d.teams.length > 20 ? { pageSize: 20, showTotal: (n) => `共 ${n} 支队伍` } : false}
                locale={{ emptyText: '本校暂无队伍报名' }}
                scroll={{ x: 960 }}
                columns={[
                  { title: '队伍', width: 180, render: (_, t) => `${t.teamName}（${t.teamNo}）` },
                  { title: '队员', width: 160, render: (_, t) => t.members.join('、') },
                  { title: '指导老师', width: 110, render: (_, t) => t.teachers.join('、') || '—' },
                  ...(d.teams.some((t) => t.groupName) ? [{ title: '组别', width: 90, render: (_: unknown, t: SchoolTeam) => t.groupName ?? '—' }] : []),
                  { title: '审核', width: 170, render: (_, t) => <ReviewState t={t} /> },
                  { title: '缴费', width: 110, render: (_, t) => payText(t) },
                  { title: '提交', width: 110, render: (_, t) => `作品${t.works} / 测试${t.tests}` },
                  { title: '成绩与奖项', width: 180, render: (_, t) => results(t) },
                  { title: '操作', width: 100, fixed: 'right', render: (_, t) => action(t) ?? '—' },
                ]}
              />
            )}
          </>
        )}
      </Space>
      {rejecting && (
        <FormModal<{ reason: string }>
          title={`驳回“${rejecting.teamName}”的报名`}
          okText="驳回"
          onClose={() => setRejecting(null)}
          onSave={async ({ reason }) => {
            await coordinatorApi.audit(rejecting.registerId!, 'reject', reason);
            void message.success('已驳回，队伍会收到通知');
            await reload();
          }}
        >
          <Form.Item name="reason" label="驳回原因" rules={[{ required: true, whitespace: true, message: '请填写驳回原因' }]}>
            <Input.TextArea maxLength={500} showCount rows={3} placeholder="队伍会看到这段原因，请写明需要如何修改" />
          </Form.Item>
        </FormModal>
      )}
    </Card>
  );
}
