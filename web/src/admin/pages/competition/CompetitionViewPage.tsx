import { ACTION_CODES, ADMIN_MENU_CODES, AUDIT_STATUS, eligibilityLines, fenToYuan, questionScorable, type ManagedQuestion } from '@contest/shared';
import { Alert, Button, Card, Descriptions, Divider, Image, Skeleton, Space, Typography } from 'antd';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { usePermissions } from '#src/common/auth.ts';
import { avatarUrl } from '#src/common/files.ts';
import { formatMinute } from '#src/common/time.ts';
import { RichTextView } from '../../components/RichTextField.tsx';
import { useIdParam } from '../../components/useIdParam.ts';
import { PhaseTag } from '#src/common/PhaseTag.tsx';
import { AuditQuestions, useCompetitionQuestions } from './parts/AuditQuestions.tsx';
import { AuditStatusTag } from './parts/AuditStatusTag.tsx';
import { PresetsPanel } from './parts/PresetsPanel.tsx';
import { ReadinessCard } from './parts/ReadinessCard.tsx';
import { StagesPanel } from './parts/StagesPanel.tsx';
import { ALLOWED, useCompetitionActions } from './parts/useCompetitionActions.tsx';
import { useCompetition } from './parts/useCompetition.ts';
import { CoordinatorsPanel } from './parts/CoordinatorsPanel.tsx';
import { PublicityPanel } from './parts/PublicityPanel.tsx';
import { useReadiness } from './parts/useReadiness.ts';

/** What approving the competition does to its questions, for the confirmation. */
function approvalOfQuestions(questions: ManagedQuestion[] | undefined): string | undefined {
  if (!questions) return undefined;
  if (!questions.length) return '它还没有赛题：赛题可在上线后添加，添加后在本页逐题审核';
  const waiting = questions.filter((q) => !q.reviewed);
  const scorable = waiting.filter(questionScorable).length;
  const rest = waiting.length - scorable;
  return [
    scorable ? `${scorable} 道可评分的赛题一并审核通过、对参赛者可见` : '没有待审核的可评分赛题',
    rest ? `${rest} 道赛题缺少评分设置或答案文件，暂不公开，补齐后在本页单独审核` : '',
  ]
    .filter(Boolean)
    .join('；');
}

/** Everything about one competition, read-only: what an auditor judges, with the audit buttons at hand. */
export default function CompetitionViewPage() {
  const id = useIdParam('competitionId');
  const navigate = useNavigate();
  const location = useLocation();
  const { has } = usePermissions();
  const competition = useCompetition(id);
  const actions = useCompetitionActions();
  // The checklist and the questions are the organisers' reads: shown to whoever may read them (the platform may).
  const canRead = has(ADMIN_MENU_CODES.competition);
  const readiness = useReadiness(id, canRead);
  const questions = useCompetitionQuestions(id ?? 0, Boolean(id) && canRead);

  if (!id || competition.isError) return <Navigate to="/404" replace />;
  if (!competition.data)
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 12 }} />
      </Card>
    );
  const c = competition.data;
  const canAudit = has(ACTION_CODES.competitionAudit) && ALLOWED.audit(c.auditStatus);
  const canEdit = has(ACTION_CODES.competitionEdit) && ALLOWED.edit(c.auditStatus);

  return (
    <Card
      title={
        <Space>
          {c.name}
          <AuditStatusTag status={c.auditStatus} />
        </Space>
      }
      extra={
        <Space>
          {canAudit && (
            <>
              <Button type="primary" onClick={() => actions.approve(c, approvalOfQuestions(questions.data))}>
                审核通过
              </Button>
              <Button danger onClick={() => actions.reject(c)}>
                驳回
              </Button>
            </>
          )}
          {canEdit && <Button onClick={() => navigate(`/competition/edit/${c.id}`)}>编辑</Button>}
          {/* Opened from the manager's or the auditor's list: go back there; opened directly, to the manager's. */}
          <Button onClick={() => (location.key === 'default' ? navigate('/competition/manager') : navigate(-1))}>返回</Button>
        </Space>
      }
    >
      {c.auditStatus === AUDIT_STATUS.rejected && (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} message={`驳回原因：${c.auditReply ?? '（未填写）'}`} />
      )}
      <Descriptions bordered size="small" column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 }} styles={{ label: { width: 130, whiteSpace: 'nowrap' } }}>
        <Descriptions.Item label="所属品牌">{c.brandShortName}</Descriptions.Item>
        <Descriptions.Item label="竞赛类型">{c.typeName ?? '未设置'}</Descriptions.Item>
        <Descriptions.Item label="主办组织">{c.orgName}</Descriptions.Item>
        <Descriptions.Item label="竞赛状态">
          <PhaseTag competition={c} next />
        </Descriptions.Item>
        <Descriptions.Item label="报名时间">
          {formatMinute(c.regStartTime)} 至 {formatMinute(c.regEndTime)}
        </Descriptions.Item>
        <Descriptions.Item label="竞赛结束时间">{formatMinute(c.endTime)}</Descriptions.Item>
        <Descriptions.Item label="报名费">
          {c.fee === 0 ? '免费' : `${fenToYuan(c.fee)} 元${c.invoiceEnable ? '（开放发票申请）' : '（未开放发票申请）'}`}
        </Descriptions.Item>
        <Descriptions.Item label="组队规则">
          每队 {c.minMembers}–{c.maxMembers} 人，指导老师最多 {c.maxTeachers} 人；{c.allowIndividual ? '允许' : '不允许'}个人参赛
        </Descriptions.Item>
        <Descriptions.Item label="参赛资格">
          {eligibilityLines(c.eligibility).length ? eligibilityLines(c.eligibility).map((l) => <div key={l}>{l}</div>) : '不限学校，不分组'}
        </Descriptions.Item>
        <Descriptions.Item label="训练平台">
          {c.trainingUrl ? (
            <Typography.Link href={c.trainingUrl} target="_blank" rel="noopener noreferrer">
              {c.trainingUrl}
            </Typography.Link>
          ) : (
            '未设置'
          )}
        </Descriptions.Item>
        <Descriptions.Item label="队伍数">{c.teamNum}</Descriptions.Item>
        <Descriptions.Item label="创建时间">{formatMinute(c.createdAt)}</Descriptions.Item>
        <Descriptions.Item label="更新时间">{formatMinute(c.updatedAt)}</Descriptions.Item>
        <Descriptions.Item label="封面图" span={2}>
          {c.cover ? <Image src={avatarUrl(c.cover)} alt="封面图" width={240} height={135} style={{ objectFit: 'cover' }} /> : '未上传'}
        </Descriptions.Item>
        <Descriptions.Item label="竞赛简介" span={2}>
          {c.summary ?? '未填写'}
        </Descriptions.Item>
      </Descriptions>
      {canRead && (
        <>
          <div style={{ marginTop: 16 }}>
            <ReadinessCard
              readiness={readiness.data}
              loading={readiness.isLoading}
              title={c.auditStatus === AUDIT_STATUS.online || c.auditStatus === AUDIT_STATUS.offline ? '竞赛检查' : '上线准备检查'}
              onFix={canEdit ? (tab) => navigate(`/competition/edit/${c.id}?tab=${tab}`) : undefined}
            />
          </div>
          <Divider orientation="left">赛题</Divider>
          <AuditQuestions competitionId={c.id} auditStatus={c.auditStatus} />
          <Divider orientation="left">院校负责人</Divider>
          <CoordinatorsPanel competitionId={c.id} editable={has(ACTION_CODES.competitionEdit)} />
          <Divider orientation="left">成绩公示与嵌入</Divider>
          <PublicityPanel competitionId={c.id} editable={has(ACTION_CODES.competitionEdit)} />
        </>
      )}
      <Divider orientation="left">竞赛介绍</Divider>
      <RichTextView html={c.introduce} />
      <Divider orientation="left">竞赛信息</Divider>
      <RichTextView html={c.information} />
      <Divider orientation="left">赛前指导</Divider>
      <RichTextView html={c.guide} />
      <Divider orientation="left">竞赛阶段</Divider>
      <StagesPanel competitionId={c.id} editable={false} />
      <Divider orientation="left">菜单设置</Divider>
      <PresetsPanel competitionId={c.id} editable={false} />
      {actions.rejectModal}
    </Card>
  );
}
