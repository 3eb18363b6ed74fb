import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Form, Result, Space, Spin } from 'antd';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { teamApi, teamKeys } from '#src/api/teams.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { showFieldErrors } from '#src/common/forms.ts';
import { HttpError, goLogin } from '#src/common/http.ts';
import { useReloadTeam } from '../../team.ts';
import { RealNameGate } from '../userCenter/RealNameGate.tsx';
import { RegFormFields, fromProfile, toInfo, type RegFormValues } from './RegFormFields.tsx';

/** Joining a team from an invitation or a join link: the team, the invitee's own form, agree or refuse. */
export function JoinPanel({ competitionId, teamId }: { competitionId: number; teamId: number }) {
  const [params] = useSearchParams();
  const code = params.get('code') ?? undefined;
  const navigate = useNavigate();
  const { message, modal } = App.useApp();
  const { data: user, isLoading: userLoading } = useCurrentUser();
  const [form] = Form.useForm<{ info: RegFormValues }>();
  const [saving, setSaving] = useState(false);
  const reloadTeam = useReloadTeam(competitionId);
  const view = useQuery({
    queryKey: teamKeys.join(teamId, code),
    enabled: Boolean(user),
    retry: false,
    queryFn: () => teamApi.join(teamId, code),
  });
  if (userLoading || view.isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (!user)
    return (
      <Result
        status="403"
        title="请先登录"
        subTitle="登录后即可查看邀请并加入队伍"
        extra={
          <Button type="primary" onClick={goLogin}>
            去登录
          </Button>
        }
      />
    );
  if (!view.data) {
    const text = view.error instanceof HttpError ? view.error.message : '邀请不存在或已失效';
    return <Result status="404" title={text} extra={<Link to={`/competition/${competitionId}/introduce`}>返回竞赛</Link>} />;
  }
  const v = view.data;
  if (v.competitionId !== competitionId) return <Navigate to="/404" replace />;
  const full = v.memberNum >= v.maxMembers;
  if (v.realName && !v.member && !user.realNameVerified) return <RealNameGate menu="REG_SET" back={`/competition/${competitionId}/introduce`} />;

  async function agree(values: { info: RegFormValues }) {
    setSaving(true);
    try {
      await teamApi.agree(teamId, code, toInfo(values.info));
      void message.success('已加入队伍');
      await reloadTeam();
      navigate(`/competition/${competitionId}/team`);
    } catch (err) {
      showFieldErrors(form, err);
    } finally {
      setSaving(false);
    }
  }

  function refuse() {
    modal.confirm({
      title: '提示',
      content: `确定拒绝加入队伍「${v.name}」吗？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        await teamApi.refuse(teamId);
        void message.success('已拒绝邀请');
        await reloadTeam();
        navigate(`/competition/${competitionId}/team`);
      },
    });
  }

  return (
    <Card title="加入队伍">
      <Descriptions column={{ xs: 1, md: 2 }} bordered size="small" style={{ marginBottom: 24 }}>
        <Descriptions.Item label="竞赛">{v.competitionName}</Descriptions.Item>
        <Descriptions.Item label="队伍名称">{v.name}</Descriptions.Item>
        <Descriptions.Item label="队伍编号">{v.teamNo}</Descriptions.Item>
        <Descriptions.Item label="队长">{v.leaderName}</Descriptions.Item>
        <Descriptions.Item label="人数">
          {v.memberNum} / {v.maxMembers}
        </Descriptions.Item>
      </Descriptions>
      {v.member ? (
        <Result status="success" title="您已在该队伍中" extra={<Link to={`/competition/${competitionId}/team`}>查看我的队伍</Link>} />
      ) : v.locked ? (
        <Result status="info" title="报名已截止，不能再加入队伍" />
      ) : full ? (
        <Result status="warning" title="队伍人数已满" />
      ) : (
        <Form form={form} layout="vertical" onFinish={agree} initialValues={{ info: fromProfile(user) }} scrollToFirstError>
          <RegFormFields fields={v.fieldList} prefix={['info']} />
          <Space>
            <GuardedButton type="primary" htmlType="submit" loading={saving}>
              同意加入
            </GuardedButton>
            {v.invitationId && <Button onClick={refuse}>拒绝邀请</Button>}
          </Space>
        </Form>
      )}
    </Card>
  );
}

/** `/join/:competitionId/:teamId`: the join link a leader shares. */
export default function JoinPage() {
  const { competitionId, teamId } = useParams();
  if (!/^\d+$/.test(competitionId ?? '') || !/^\d+$/.test(teamId ?? '')) return <Navigate to="/404" replace />;
  return <JoinPanel competitionId={Number(competitionId)} teamId={Number(teamId)} />;
}

/** `competition/:id/team/:teamId` inside the competition's pages. */
export function JoinTab() {
  const { competitionId, teamId } = useParams();
  if (!/^\d+$/.test(teamId ?? '')) return <Navigate to="/404" replace />;
  return <JoinPanel competitionId={Number(competitionId)} teamId={Number(teamId)} />;
}
