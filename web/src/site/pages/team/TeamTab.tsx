import {
  INVITATION_STATUS_TEXT,
  PAY_STATUS,
  PAY_STATUS_TEXT,
  REGISTER_STATUS,
  REGISTER_STATUS_TEXT,
  SCHOOL_STATUS,
  fenToYuan,
  isCustomField,
  isValidPhone,
  registrationRefusal,
  type Team,
  type TeamMember,
  type TeamTeacher,
  effectiveRegFields,
} from '@contest/shared';
import { CopyOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Descriptions, Empty, Form, Grid, Input, List, Result, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { orderApi } from '#src/api/orders.ts';
import { teamApi } from '#src/api/teams.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { ruleFrom, showFieldErrors } from '#src/common/forms.ts';
import { goLogin, sysTime } from '#src/common/http.ts';
import { formatMinute } from '#src/common/time.ts';
import { formValue } from '#src/common/RegInfo.tsx';
import { joinLink, useReloadTeam, useTeam } from '../../team.ts';
import { useCompetition } from '../competition/CompetitionLayout.tsx';
import { RegFormFields, fromInfo, toInfo, type RegFormValues } from './RegFormFields.tsx';
import { ActionLink } from '#src/common/ActionLink.tsx';

const REGISTER_COLORS: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error' };

/** What the team does next, beside its registration's state: pay, wait for the organiser, correct and resubmit, or choose. */
function registerNextStep(register: NonNullable<Team['register']>, fee: number): string {
  const unpaid = fee > 0 && register.payStatus !== PAY_STATUS.paid;
  if (register.status === REGISTER_STATUS.rejected) return `未通过：${register.reason ?? ''}。请点击“修改报名信息”更正后重新提交。`;
  if (register.status === REGISTER_STATUS.pending && register.schoolStatus === SCHOOL_STATUS.pending)
    return `等待本校院校负责人审核，通过后再由主办方审核${unpaid ? '；请同时完成缴费' : ''}，结果会以消息通知您。`;
  if (register.status === REGISTER_STATUS.pending)
    return unpaid
      ? '请先完成缴费；主办方审核通过后即可选择赛题。'
      : `${register.schoolStatus === SCHOOL_STATUS.approved ? '学校已审核通过，' : ''}等待主办方审核，审核通过后即可选择赛题，结果会以消息通知您。`;
  return unpaid ? '审核已通过，完成缴费后即可选择赛题。' : '审核已通过，可以在“选择赛题”中选题。';
}
const PAY_COLORS: Record<number, string> = { 0: 'warning', 1: 'success', 2: 'default', 3: 'default' };

function TeachersModal({ team, onClose }: { team: Team; onClose: () => void }) {
  const { message } = App.useApp();
  const reload = useReloadTeam(team.competitionId);
  async function save(values: { teacherList?: Omit<TeamTeacher, 'id'>[] }) {
    await teamApi.updateTeachers(team.id, values.teacherList ?? []);
    void message.success('指导老师已保存');
    await reload();
  }
  return (
    <FormModal<{ teacherList?: Omit<TeamTeacher, 'id'>[] }>
      title="指导老师"
      name="teachers"
      width={720}
      onSave={save}
      onClose={onClose}
      initialValues={{ teacherList: team.teacherList.map(({ id: _id, ...t }) => t) }}
    >
      <Form.List name="teacherList">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field, i) => (
              <Space key={field.key} align="start" wrap>
                <Form.Item
                  name={[field.name, 'name']}
                  label={i === 0 ? '姓名' : undefined}
                  rules={[{ required: true, whitespace: true, message: '请输入老师姓名' }]}
                >
                  <Input placeholder="姓名" style={{ width: 120 }} />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'phone']}
                  label={i === 0 ? '手机号' : undefined}
                  rules={[ruleFrom((v) => (isValidPhone(v) ? null : '老师手机号格式不正确'))]}
                >
                  <Input placeholder="手机号" style={{ width: 150 }} />
                </Form.Item>
                <Form.Item name={[field.name, 'organization']} label={i === 0 ? '单位' : undefined}>
                  <Input placeholder="单位" style={{ width: 160 }} />
                </Form.Item>
                <Form.Item name={[field.name, 'title']} label={i === 0 ? '职称' : undefined}>
                  <Input placeholder="职称" style={{ width: 100 }} />
                </Form.Item>
                <Button type="link" danger onClick={() => remove(field.name)} style={{ marginTop: i === 0 ? 30 : 0 }}>
                  删除
                </Button>
              </Space>
            ))}
            <Button icon={<PlusOutlined />} disabled={fields.length >= team.maxTeachers} onClick={() => add({ name: '' })}>
              添加指导老师（最多{team.maxTeachers}名）
            </Button>
          </>
        )}
      </Form.List>
    </FormModal>
  );
}

function EditRegistrationModal({ team, me, onClose }: { team: Team; me: TeamMember; onClose: () => void }) {
  const { competition, presets } = useCompetition();
  // The organiser's fields, with 学校 and 学历 where the competition's eligibility rules need them.
  const fields = effectiveRegFields(presets.find((p) => p.menuCode === 'REG_SET')?.fieldList ?? [], competition.eligibility);
  const { message } = App.useApp();
  const reload = useReloadTeam(team.competitionId);
  const leader = me.leader;
  async function save(values: { teamName?: string; info: RegFormValues }) {
    if (leader) await teamApi.update(team.id, { teamName: team.individual ? null : values.teamName, info: toInfo(values.info) });
    else await teamApi.updateMember(team.id, toInfo(values.info));
    void message.success(leader && team.register?.status === REGISTER_STATUS.rejected ? '已重新提交审核' : '报名信息已保存');
    await reload();
  }
  return (
    <FormModal<{ teamName?: string; info: RegFormValues }>
      title="修改报名信息"
      name="registration"
      width={760}
      onSave={save}
      onClose={onClose}
      initialValues={{ teamName: team.name, info: fromInfo(me.info) }}
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message="身份证号只显示部分数字；如需更正，请重新填写完整号码。" />
      {leader && !team.individual && (
        <Form.Item name="teamName" label="队伍名称" rules={[{ required: true, whitespace: true, message: '请输入队伍名称' }]}>
          <Input maxLength={50} />
        </Form.Item>
      )}
      <RegFormFields fields={fields} prefix={['info']} />
    </FormModal>
  );
}

function InvitePanel({ team }: { team: Team }) {
  const [form] = Form.useForm<{ account: string }>();
  const { message } = App.useApp();
  const reload = useReloadTeam(team.competitionId);
  const link = team.joinCode ? joinLink(team.competitionId, team.id, team.joinCode) : null;
  async function invite(values: { account: string }) {
    try {
      // The reply is the same for every account, so it names the account typed, never a person.
      await teamApi.invite(team.id, values.account);
      void message.success(`已向 ${values.account.trim()} 发出邀请：对方如可加入本队，会在“我的队伍”中看到邀请；也可以把加入链接发给对方`);
      form.resetFields();
      await reload();
    } catch (err) {
      showFieldErrors(form, err);
    }
  }
  return (
    <Card type="inner" title="邀请队员" style={{ marginTop: 16 }}>
      <Form form={form} layout="inline" onFinish={invite}>
        <Form.Item name="account" rules={[{ required: true, whitespace: true, message: '请输入被邀请人的用户名或手机号' }]}>
          <Input placeholder="用户名或手机号" style={{ width: 240 }} />
        </Form.Item>
        <GuardedButton type="primary" htmlType="submit">
          发送邀请
        </GuardedButton>
      </Form>
      {link && (
        <div style={{ marginTop: 16 }}>
          <Typography.Text type="secondary">或把加入链接发给队友：</Typography.Text>
          <Typography.Paragraph
            copyable={{ text: link, icon: <CopyOutlined />, tooltips: ['复制链接', '已复制'] }}
            data-testid="join-link"
            style={{ wordBreak: 'break-all' }}
          >
            {link}
          </Typography.Paragraph>
        </div>
      )}
      {team.invitationList.length > 0 && (
        <List
          size="small"
          header="已发出、待回复的邀请（按填写的用户名或手机号）"
          dataSource={team.invitationList}
          renderItem={(i) => (
            <List.Item>
              {i.inviteeName} <Tag>{INVITATION_STATUS_TEXT[i.status]}</Tag> {formatMinute(i.createdAt)}
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

function TeamView({ team }: { team: Team }) {
  const { data: user } = useCurrentUser();
  const { competition, presets } = useCompetition();
  // The organiser's own fields are shown beside the usual ones; a file is a link the team's members may open.
  const ownFields = (presets.find((p) => p.menuCode === 'REG_SET')?.fieldList ?? []).filter((f) => isCustomField(f.name));
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const reload = useReloadTeam(team.competitionId);
  const [teachersOpen, setTeachersOpen] = useState(false);
  const [editOpen, setEditOpen] = useState(false);
  const me = team.memberList.find((m) => m.userId === user?.id)!;
  const leader = me?.leader ?? false;
  const register = team.register;

  function remove(m: TeamMember) {
    const self = m.userId === user?.id;
    modal.confirm({
      title: '提示',
      content: self ? '确定退出该队伍吗？' : `确定将 ${m.name} 移出队伍吗？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        await teamApi.removeMember(team.id, m.userId);
        void message.success(self ? '已退出队伍' : '已移除队员');
        await reload();
      },
    });
  }

  async function reorder() {
    const r = await orderApi.createForTeam(team.id);
    await reload();
    navigate(`/payment/${team.competitionId}/${r.id}`);
  }

  const payStatus = register?.payStatus ?? null;
  const phone = Grid.useBreakpoint().md === false;
  const memberAction = (m: TeamMember) =>
    !team.locked && !m.leader && (leader || m.userId === user?.id) ? (
      <ActionLink onClick={() => remove(m)}>{m.userId === user?.id ? '退出队伍' : '移除'}</ActionLink>
    ) : null;
  return (
    <>
      {team.locked && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message="报名已截止，队伍信息已锁定" />}
      {register?.status === REGISTER_STATUS.rejected && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message={`报名审核驳回：${register.reason ?? ''}`}
          description={leader ? '请按驳回原因修改报名信息后重新提交。' : '请联系队长修改报名信息。'}
        />
      )}
      <Descriptions
        className="team-summary"
        column={{ xs: 1, md: 2 }}
        bordered
        size="small"
        title="我的队伍"
        extra={
          <Space wrap>
            {!team.locked && <Button onClick={() => setEditOpen(true)}>{leader ? '修改报名信息' : '修改我的信息'}</Button>}
            {leader && !team.locked && <Button onClick={() => setTeachersOpen(true)}>编辑指导老师</Button>}
          </Space>
        }
      >
        <Descriptions.Item label="队伍名称">{team.name}</Descriptions.Item>
        <Descriptions.Item label="队伍编号">{team.teamNo}</Descriptions.Item>
        <Descriptions.Item label="参赛方式">
          {team.individual ? '个人参赛' : `组队参赛（${team.memberList.length}/${team.maxMembers}人，至少${team.minMembers}人）`}
        </Descriptions.Item>
        <Descriptions.Item label="报名状态">
          {register ? (
            <Tag color={REGISTER_COLORS[register.status]} data-testid="register-status">
              {REGISTER_STATUS_TEXT[register.status]}
            </Tag>
          ) : (
            '—'
          )}
          {register && (
            <div className="order-card-note" data-testid="register-next">
              {registerNextStep(register, competition.fee)}
            </div>
          )}
        </Descriptions.Item>
        <Descriptions.Item label="报名费">
          {competition.fee === 0 ? (
            '免费'
          ) : payStatus === null ? (
            '—'
          ) : (
            <Space>
              <Tag color={PAY_COLORS[payStatus]} data-testid="pay-status">
                {PAY_STATUS_TEXT[payStatus]}
              </Tag>
              ¥{fenToYuan(competition.fee)}
              {payStatus === PAY_STATUS.unpaid && register?.orderId && <Link to={`/payment/${team.competitionId}/${register.orderId}`}>去支付</Link>}
              {payStatus === PAY_STATUS.closed && !team.locked && <ActionLink onClick={reorder}>重新下单</ActionLink>}
            </Space>
          )}
        </Descriptions.Item>
        {team.groupName && (
          <Descriptions.Item label="参赛组别">
            <span data-testid="team-group">{team.groupName}</span>
          </Descriptions.Item>
        )}
        {team.schoolName && competition.eligibility.sameSchool && <Descriptions.Item label="学校">{team.schoolName}</Descriptions.Item>}
        <Descriptions.Item label="报名时间">{register ? formatMinute(register.createdAt) : '—'}</Descriptions.Item>
      </Descriptions>

      <Card type="inner" title="队员" style={{ marginTop: 16 }}>
        {phone ? (
          // On a phone each member is a card: every field and the action in sight, none behind a sideways scroll.
          <List<TeamMember>
            dataSource={team.memberList}
            renderItem={(m) => (
              <List.Item key={m.userId} className="order-card" data-testid="member-card">
                <div className="order-card-head">
                  <span className="order-card-title">
                    {m.name} {m.leader && <Tag color="blue">队长</Tag>}
                  </span>
                  {memberAction(m)}
                </div>
                <div className="order-card-note">{[m.username, m.info.tel, m.info.idCardNo].filter(Boolean).join(' · ')}</div>
                {m.info.organization && <div className="order-card-note">{m.info.organization}</div>}
                {ownFields.map((f) => (
                  <div className="order-card-note" key={f.name}>
                    {f.label}：{formValue(f, m.info) || '—'}
                  </div>
                ))}
              </List.Item>
            )}
          />
        ) : (
          // Wider than the card: the table scrolls in it, its cells keep to one line.
          <Table<TeamMember>
            rowKey="userId"
            size="small"
            className="team-table"
            scroll={{ x: 'max-content' }}
            pagination={false}
            dataSource={team.memberList}
            columns={[
              {
                title: '姓名',
                render: (_, m) => (
                  <>
                    {m.name} {m.leader && <Tag color="blue">队长</Tag>}
                  </>
                ),
              },
              { title: '用户名', dataIndex: 'username' },
              { title: '手机号', render: (_, m) => m.info.tel ?? '' },
              { title: '身份证号', render: (_, m) => m.info.idCardNo ?? '' },
              { title: '学校', render: (_, m) => m.info.organization ?? '' },
              ...ownFields.map((f) => ({ key: f.name, title: f.label, render: (_: unknown, m: TeamMember) => formValue(f, m.info) })),
              { title: '操作', render: (_, m) => memberAction(m) },
            ]}
          />
        )}
      </Card>

      <Card type="inner" title="指导老师" style={{ marginTop: 16 }}>
        {!team.teacherList.length ? (
          <Empty description="暂无指导老师" image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : phone ? (
          <List<TeamTeacher>
            dataSource={team.teacherList}
            renderItem={(t) => (
              <List.Item key={t.id} className="order-card" data-testid="teacher-card">
                <div className="order-card-head">
                  <span className="order-card-title">{t.name}</span>
                  {t.title && <span className="order-card-note">{t.title}</span>}
                </div>
                <div className="order-card-note">{[t.phone, t.organization].filter(Boolean).join(' · ')}</div>
              </List.Item>
            )}
          />
        ) : (
          <Table<TeamTeacher>
            rowKey="id"
            size="small"
            className="team-table"
            scroll={{ x: 'max-content' }}
            pagination={false}
            dataSource={team.teacherList}
            columns={[
              { title: '姓名', dataIndex: 'name' },
              { title: '手机号', dataIndex: 'phone' },
              { title: '单位', dataIndex: 'organization' },
              { title: '职称', dataIndex: 'title' },
            ]}
          />
        )}
      </Card>

      {leader && !team.individual && !team.locked && team.memberList.length < team.maxMembers && <InvitePanel team={team} />}
      {teachersOpen && <TeachersModal team={team} onClose={() => setTeachersOpen(false)} />}
      {editOpen && me && <EditRegistrationModal team={team} me={me} onClose={() => setEditOpen(false)} />}
    </>
  );
}

/** `competition/:id/team`: the caller's team, or how to get one. */
export default function TeamTab() {
  const { competition, presets } = useCompetition();
  const { data: user, isLoading: userLoading } = useCurrentUser();
  const { data, isLoading } = useTeam(competition.id);
  const { message } = App.useApp();
  const reload = useReloadTeam(competition.id);
  if (userLoading || (user && isLoading)) return <Spin />;
  if (!user)
    return (
      <Result
        status="info"
        title="登录后查看我的队伍"
        extra={
          <Button type="primary" onClick={goLogin}>
            去登录
          </Button>
        }
      />
    );
  if (data?.team) return <TeamView team={data.team} />;
  const reg = presets.find((p) => p.menuCode === 'REG_SET');
  // The one rule the server refuses by: the window, and no registration once grading started or results are out.
  const refusal = registrationRefusal(competition, competition.phase.code, sysTime());
  const open = Boolean(reg?.enable) && !refusal;
  return (
    <>
      {data?.invitations.map((i) => (
        <Alert
          key={i.id}
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message={`${i.inviterName} 邀请您加入队伍「${i.teamName}」`}
          action={
            <Space>
              <Link to={`/competition/${competition.id}/team/${i.teamId}`}>查看并加入</Link>
              <ActionLink
                onClick={async () => {
                  await teamApi.refuse(i.teamId);
                  void message.success('已拒绝邀请');
                  await reload();
                }}
              >
                拒绝
              </ActionLink>
            </Space>
          }
        />
      ))}
      <Result
        status="info"
        title="您还没有报名本竞赛"
        subTitle={open ? '报名后即可组队、邀请队友并缴费。' : (refusal ?? '该竞赛未开放报名')}
        extra={
          open && (
            <Link to={`/registration/${competition.id}`}>
              <Button type="primary">立即报名</Button>
            </Link>
          )
        }
      />
    </>
  );
}
