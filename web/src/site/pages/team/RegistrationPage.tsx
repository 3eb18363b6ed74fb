import { effectiveRegFields, eligibilityLines, fenToYuan, registrationRefusal, type TeamRegisterBody } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { App, Alert, Button, Card, Form, Input, Radio, Result, Space, Spin, type UploadFile } from 'antd';
import { useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { publicCompetitionApi, publicCompetitionKeys } from '#src/api/competitions.ts';
import { teamApi } from '#src/api/teams.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { showFieldErrors } from '#src/common/forms.ts';
import { goLogin, sysTime } from '#src/common/http.ts';
import { DocumentUpload, uploadedUris } from '#src/common/DocumentUpload.tsx';
import { RealNameGate } from '../userCenter/RealNameGate.tsx';
import { useReloadTeam, useTeam } from '../../team.ts';
import { RegFormFields, fromProfile, toInfo, type RegFormValues } from './RegFormFields.tsx';

type Values = { individual: boolean; teamName?: string; groupName?: string; info: RegFormValues };

export default function RegistrationPage() {
  const { competitionId } = useParams();
  const id = Number(competitionId);
  const valid = /^\d+$/.test(competitionId ?? '');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { data: user, isLoading: userLoading } = useCurrentUser();
  const [form] = Form.useForm<Values>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [saving, setSaving] = useState(false);
  const submitted = useRef(false);
  const reloadTeam = useReloadTeam(id);
  const competition = useQuery({ queryKey: publicCompetitionKeys.detail(id), enabled: valid, queryFn: () => publicCompetitionApi.detail(id) });
  const presets = useQuery({ queryKey: publicCompetitionKeys.presets(id), enabled: valid, queryFn: () => publicCompetitionApi.presets(id) });
  const team = useTeam(valid ? id : 0);
  const individual = Form.useWatch('individual', form);

  if (!valid) return <Navigate to="/404" replace />;
  if (userLoading || competition.isLoading || presets.isLoading) return <Spin style={{ display: 'block', margin: '120px auto' }} />;
  if (!user)
    return (
      <Result
        status="403"
        title="请先登录"
        subTitle="登录后才能报名参赛"
        extra={
          <Button type="primary" onClick={goLogin}>
            去登录
          </Button>
        }
      />
    );
  const c = competition.data;
  if (!c || !presets.data) return <Result status="404" title="竞赛不存在或尚未上线" extra={<Link to="/competitionList">返回竞赛列表</Link>} />;
  if (team.data?.team && !submitted.current) return <Navigate to={`/competition/${id}/team`} replace />;
  const reg = presets.data.find((p) => p.menuCode === 'REG_SET');
  const closed = !reg?.enable ? '该竞赛未开放报名' : registrationRefusal(c, c.phase.code, sysTime());
  if (closed) return <Result status="info" title={closed} extra={<Link to={`/competition/${id}/introduce`}>返回竞赛</Link>} />;
  if (reg?.realName && !user.realNameVerified) return <RealNameGate menu="REG_SET" back={`/competition/${id}/introduce`} />;
  const rules = eligibilityLines(c.eligibility);

  async function submit(values: Values) {
    setSaving(true);
    try {
      const body: TeamRegisterBody = {
        individual: values.individual,
        teamName: values.individual ? null : values.teamName,
        groupName: values.groupName ?? null,
        info: toInfo(values.info),
        attachments: uploadedUris(files),
      };
      const result = await teamApi.register(id, body);
      void message.success('报名成功');
      // With the team loaded this page sends a registered user to the team tab; not the one who just registered.
      submitted.current = true;
      navigate(result.orderId ? `/payment/${id}/${result.orderId}` : `/competition/${id}/team`);
      void reloadTeam();
    } catch (err) {
      showFieldErrors(form, err);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card title={`报名：${c.name}`} extra={<Link to={`/competition/${id}/introduce`}>返回竞赛</Link>}>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 24 }}
        message={`每队${c.minMembers}至${c.maxMembers}人，最多${c.maxTeachers}名指导老师${c.fee ? `；报名费 ¥${fenToYuan(c.fee)}，提交后请在订单有效期内完成支付` : '；免费报名'}。`}
        description={
          rules.length > 0 && (
            <div data-testid="eligibility-rules">
              参赛资格：
              <ul style={{ margin: 0, paddingLeft: 20 }}>
                {rules.map((l) => (
                  <li key={l}>{l}</li>
                ))}
              </ul>
            </div>
          )
        }
      />
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ individual: false, info: fromProfile(user) }} scrollToFirstError>
        {c.allowIndividual && (
          <Form.Item name="individual" label="参赛方式">
            <Radio.Group
              options={[
                { value: false, label: '组队参赛（我是队长）' },
                { value: true, label: '个人参赛' },
              ]}
            />
          </Form.Item>
        )}
        {!individual && (
          <Form.Item
            name="teamName"
            label="队伍名称"
            rules={[
              { required: true, whitespace: true, message: '请输入队伍名称' },
              { max: 50, message: '队伍名称不能超过50个字符' },
            ]}
          >
            <Input maxLength={50} />
          </Form.Item>
        )}
        {c.eligibility.groupMode === 'choice' && (
          <Form.Item name="groupName" label="参赛组别" rules={[{ required: true, message: '请选择参赛组别' }]}>
            <Radio.Group options={c.eligibility.groupList.map((g) => ({ value: g.name, label: g.name }))} />
          </Form.Item>
        )}
        <Card type="inner" title="报名信息" style={{ marginBottom: 24 }}>
          <RegFormFields fields={effectiveRegFields(reg!.fieldList, c.eligibility)} prefix={['info']} />
        </Card>
        <Form.Item label="附件（如学生证，可选）">
          <DocumentUpload purpose="attachment" files={files} onChange={setFiles} />
        </Form.Item>
        <Space>
          <GuardedButton type="primary" htmlType="submit" loading={saving}>
            提交报名
          </GuardedButton>
          <Button onClick={() => navigate(-1)}>取消</Button>
        </Space>
      </Form>
    </Card>
  );
}
