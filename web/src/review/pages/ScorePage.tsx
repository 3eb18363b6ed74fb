import {
  ASSIGNMENT_STATUS,
  formatSize,
  judgeTotal,
  maxTotal,
  scoreError,
  totalText,
  type Criterion,
  type ReviewWorkDetail,
  type ScoreBody,
} from '@contest/shared';
import {
  Alert,
  App,
  Breadcrumb,
  Button,
  Card,
  Col,
  Descriptions,
  Divider,
  Empty,
  Form,
  Input,
  InputNumber,
  Result,
  Row,
  Space,
  Spin,
  Statistic,
  Typography,
} from 'antd';
import { useRef, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { judgingApi } from '../../api/judging.ts';
import { DownloadButton } from '../../common/DownloadButton.tsx';
import { showFieldErrors } from '../../common/forms.ts';
import { HttpError } from '../../common/http.ts';
import { formatMinute } from '../../common/time.ts';
import { useReloadReview, useReviewWork, workDownloadUrl } from '../api.ts';
import { StatusTags, TeamInfo } from './QuestionWorksPage.tsx';

interface ScoreForm {
  scores: { score: number | null; comment?: string | null }[];
  comment?: string | null;
}

const initialValues = (w: ReviewWorkDetail): ScoreForm => ({
  scores: w.criteria.map((c) => {
    const s = w.scores.find((x) => x.criterionId === c.id);
    return { score: s?.score ?? null, comment: s?.comment ?? '' };
  }),
  comment: w.comment ?? '',
});

/** The live total: the points added up once every criterion holds a score the server would take. */
function liveTotal(criteria: Criterion[], scores: ScoreForm['scores'] | undefined) {
  return judgeTotal(criteria, Object.fromEntries(criteria.map((c, i) => [c.id, scoreError(c, scores?.[i]?.score) ? null : scores?.[i]?.score])));
}

/** The form's rows back into the body the server takes, one per criterion in the rule's order. */
function toBody(work: ReviewWorkDetail, values: ScoreForm, submit: boolean): ScoreBody {
  return {
    scores: work.criteria.map((c, i) => ({ criterionId: c.id, score: values.scores?.[i]?.score ?? null, comment: values.scores?.[i]?.comment || null })),
    comment: values.comment || null,
    submit,
    // The version on this page: if the team has replaced it since, the server refuses and the page shows the new one.
    workId: work.workId,
  };
}

/** One criterion's score: the shared range check, and a score at all when submitting. */
const scoreRule = (c: Criterion, submitting: { current: boolean }) => ({
  validator: async (_: unknown, value: unknown) => {
    if ((value === null || value === undefined || value === '') && submitting.current) throw new Error('请为此项打分');
    const error = scoreError(c, value);
    if (error) throw new Error(error);
  },
});

function ScoreSheet({ work }: { work: ReviewWorkDetail }) {
  const { message, modal } = App.useApp();
  const reload = useReloadReview();
  const [form] = Form.useForm<ScoreForm>();
  const [saving, setSaving] = useState<'draft' | 'submit' | null>(null);
  // A draft may leave criteria empty; submitting may not. The range is checked either way, as the judge types.
  const submitting = useRef(false);
  const watched = Form.useWatch('scores', form) as ScoreForm['scores'] | undefined;
  const submitted = work.status === ASSIGNMENT_STATUS.submitted;
  const max = maxTotal(work.criteria);
  const total = liveTotal(work.criteria, watched);

  async function validate(submit: boolean) {
    submitting.current = submit;
    try {
      await form.validateFields();
      return true;
    } catch {
      return false;
    } finally {
      submitting.current = false;
    }
  }

  async function saveDraft() {
    if (!(await validate(false))) return void message.warning('请先改正标红的分数');
    await save(false).catch(() => undefined);
  }

  async function save(submit: boolean) {
    setSaving(submit ? 'submit' : 'draft');
    try {
      await judgingApi.score(work.id, toBody(work, form.getFieldsValue(true), submit));
      void message.success(submit ? '评分已提交' : '草稿已保存');
      await reload();
    } catch (err) {
      showFieldErrors(form, err);
      // Submitted meanwhile (another tab), or reopened: show the sheet as it now stands.
      if (err instanceof HttpError && err.status === 409) void reload();
      throw err;
    } finally {
      setSaving(null);
    }
  }

  async function confirmSubmit() {
    if (!(await validate(true))) return void message.warning('请为每一项评审标准打出有效的分数后再提交');
    modal.confirm({
      title: '提交评分',
      content: (
        <>
          <p>
            作品 {work.code} 的总分为 <b>{totalText(total, max)}</b>。
          </p>
          <p>提交后不能再修改，只有竞赛组织方可以重新开放评分。确定提交吗？</p>
        </>
      ),
      okText: '确定提交',
      cancelText: '取消',
      onOk: () => save(true).catch(() => undefined),
    });
  }

  if (!work.criteria.length) {
    return (
      <Card title="评分">
        <Empty description="该赛题尚未设置评审标准，请联系竞赛组织方" />
      </Card>
    );
  }
  return (
    <Card
      title="评分"
      extra={
        <Statistic
          title="当前总分"
          value={totalText(total, max)}
          valueStyle={{ fontSize: 22, color: total === null ? undefined : '#1890ff' }}
          data-testid="live-total"
        />
      }
    >
      {submitted ? (
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 16 }}
          message={`评分已于 ${formatMinute(work.updatedAt)} 提交，不能再修改`}
          description="如需修改，请联系竞赛组织方重新开放该作品的评分。"
        />
      ) : (
        <Typography.Paragraph type="secondary">
          请逐项打分（0 至该项满分，至多两位小数）。总分为各项得分之和，满分为各项满分之和（{max} 分）。未提交前可随时保存草稿。
        </Typography.Paragraph>
      )}
      <Form<ScoreForm>
        form={form}
        layout="vertical"
        name="score"
        initialValues={initialValues(work)}
        disabled={submitted}
        onFinish={() => void confirmSubmit()}
        onFinishFailed={() => void message.warning('请先改正标红的分数')}
      >
        {work.criteria.map((c, i) => (
          <div key={c.id} data-testid="criterion">
            <Row gutter={24}>
              <Col xs={24} md={8}>
                <Typography.Text strong>
                  {i + 1}. {c.name}
                </Typography.Text>
                {c.description && (
                  <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0', whiteSpace: 'pre-wrap' }}>
                    {c.description}
                  </Typography.Paragraph>
                )}
                <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
                  满分 {c.maxScore} 分
                </Typography.Paragraph>
              </Col>
              <Col xs={24} md={5}>
                <Form.Item name={['scores', i, 'score']} label="得分" rules={[scoreRule(c, submitting)]}>
                  {/* No min / max: the input would silently pull 70 back to 60; the rule says why instead. */}
                  <InputNumber step={1} suffix={`/ ${c.maxScore}`} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={24} md={11}>
                <Form.Item name={['scores', i, 'comment']} label="评语（可选）">
                  <Input.TextArea rows={2} maxLength={1000} placeholder="对此项的评价" />
                </Form.Item>
              </Col>
            </Row>
            <Divider style={{ margin: '4px 0 16px' }} />
          </div>
        ))}
        <Form.Item name="comment" label="总评（可选）">
          <Input.TextArea rows={4} maxLength={2000} showCount placeholder="对作品的总体评价" />
        </Form.Item>
        {!submitted && (
          <Space>
            <Button loading={saving === 'draft'} disabled={saving !== null} onClick={() => void saveDraft()}>
              保存草稿
            </Button>
            <Button type="primary" htmlType="submit" loading={saving === 'submit'} disabled={saving !== null}>
              提交评分
            </Button>
          </Space>
        )}
      </Form>
    </Card>
  );
}

/** `#/score/:assignmentId`: one work's details and the judge's score sheet. */
export default function ScorePage() {
  const { assignmentId } = useParams();
  const valid = /^\d+$/.test(assignmentId ?? '');
  const { data: work, isLoading } = useReviewWork(valid ? Number(assignmentId) : 0);
  if (!valid) return <Navigate to="/404" replace />;
  if (isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (!work) return <Result status="404" title="作品不存在，或未分配给您" extra={<Link to="/">返回我的评审任务</Link>} />;
  return (
    <>
      <Breadcrumb
        style={{ marginBottom: 16 }}
        items={[
          { title: <Link to="/">我的评审任务</Link> },
          { title: <Link to={`/question/${work.questionId}`}>{work.questionTitle}</Link> },
          { title: `作品 ${work.code}` },
        ]}
      />
      <Card title={`作品 ${work.code}`} style={{ marginBottom: 16 }} extra={<Link to={`/question/${work.questionId}`}>返回作品列表</Link>}>
        <Descriptions column={{ xs: 1, md: 2 }} size="small">
          <Descriptions.Item label="竞赛">{work.competitionName}</Descriptions.Item>
          <Descriptions.Item label="赛题">{work.questionTitle}</Descriptions.Item>
          <Descriptions.Item label="作品编号">{work.code}</Descriptions.Item>
          <Descriptions.Item label="状态">
            <StatusTags work={work} />
          </Descriptions.Item>
          <Descriptions.Item label="作品文件">
            {work.fileName ? (
              <Space wrap>
                <span>
                  {work.fileName}
                  {work.size !== null && `（${formatSize(work.size)}）`}
                </span>
                <DownloadButton url={workDownloadUrl(work.id)} downloadKey={`work-${work.id}`} width={200}>
                  下载作品
                </DownloadButton>
              </Space>
            ) : (
              '无文件'
            )}
          </Descriptions.Item>
          {work.version !== null && (
            <Descriptions.Item label="版本">
              第 {work.version} 版{work.uploadedAt && `，上传于 ${formatMinute(work.uploadedAt)}`}（以截止前最后上传的版本为准）
            </Descriptions.Item>
          )}
          <Descriptions.Item label="最近保存">{formatMinute(work.updatedAt)}</Descriptions.Item>
          {work.team && (
            <Descriptions.Item label="队伍" span={2}>
              <TeamInfo team={work.team} />
            </Descriptions.Item>
          )}
        </Descriptions>
        {work.rereview && <Alert type="warning" showIcon style={{ marginTop: 12 }} message="这是一份复评作品：组织方在处理成绩申诉时请您重新评审。" />}
        {work.scoredVersion !== null && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 12 }}
            data-testid="new-version"
            message={`您之前评审的是第 ${work.scoredVersion} 版，队伍在截止前上传了第 ${work.version} 版`}
            description="原评分已退回为草稿并保留，请下载新版本查看后重新提交评分。"
          />
        )}
      </Card>
      <ScoreSheet key={`${work.id}-${work.status}`} work={work} />
    </>
  );
}
