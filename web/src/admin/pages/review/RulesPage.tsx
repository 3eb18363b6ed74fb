import {
  ACTION_CODES,
  AGGREGATIONS,
  AGGREGATION_NAMES,
  GRADE_STATE,
  REVIEW_SCORE_RULE,
  finalScoreRule,
  maxTotal,
  type Aggregation,
  type ManagedQuestion,
  type ReviewRuleBody,
} from '@contest/shared';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Col, Empty, Form, Input, InputNumber, Modal, Row, Select, Skeleton, Switch, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { usePermissions } from '#src/common/auth.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { reviewApi, reviewKeys } from '#src/api/review.ts';
import { CompetitionQuestions } from '../../components/CompetitionQuestions.tsx';
import { useListMutation } from '#src/common/usePagedList.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';

const MAX_CRITERIA = 20;
type Values = ReviewRuleBody;

/**
 * The criteria: name, explanation and full mark per row; fixed once a judge has saved a score. A judge's total adds
 * the points up, so a criterion weighs as much as its full mark.
 */
function CriteriaEditor({ locked }: { locked: boolean }) {
  const criteria = Form.useWatch<Values['criteria'] | undefined>('criteria');
  const max = maxTotal((criteria ?? []).map((c) => ({ maxScore: typeof c?.maxScore === 'number' ? c.maxScore : 0 })));
  return (
    <Form.List name="criteria">
      {(fields, { add, remove }, { errors }) => (
        <>
          {fields.map((field) => (
            <Row key={field.key} gutter={8} align="top" wrap={false}>
              <Form.Item name={[field.name, 'id']} hidden>
                <Input />
              </Form.Item>
              <Col flex="180px">
                <Form.Item name={[field.name, 'name']} rules={[{ required: true, whitespace: true, message: '请输入评审标准名称' }]}>
                  <Input placeholder="名称，如：模型效果" maxLength={50} disabled={locked} />
                </Form.Item>
              </Col>
              <Col flex="auto">
                <Form.Item name={[field.name, 'description']}>
                  <Input placeholder="说明（选填）" maxLength={500} disabled={locked} />
                </Form.Item>
              </Col>
              <Col flex="110px">
                <Form.Item name={[field.name, 'maxScore']} rules={[{ required: true, message: '请输入满分' }]}>
                  <InputNumber placeholder="满分" suffix="分" min={1} max={1000} precision={0} disabled={locked} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              {!locked && (
                <Col flex="32px">
                  <Tooltip title="删除">
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label="删除评审标准"
                      disabled={fields.length <= 1}
                      onClick={() => remove(field.name)}
                    />
                  </Tooltip>
                </Col>
              )}
            </Row>
          ))}
          <Form.ErrorList errors={errors} />
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            每位专家的总分为各项得分之和，满分为各项满分之和（当前 {max} 分）；满分越高的标准在总分中分量越重。
          </Typography.Paragraph>
          {!locked && (
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              disabled={fields.length >= MAX_CRITERIA}
              onClick={() => add({ name: '', description: '', maxScore: 100 })}
            >
              添加评审标准{fields.length >= MAX_CRITERIA && `（最多${MAX_CRITERIA}项）`}
            </Button>
          )}
        </>
      )}
    </Form.List>
  );
}

/**
 * The shares of the final score: review and automatic test, summing to 100. Changing the review's share sets the
 * test's to the rest; a question without automatic scoring should give the review everything.
 */
function WeightItems({ automatic }: { automatic: boolean }) {
  const form = Form.useFormInstance<Values>();
  const reviewWeight = Form.useWatch<number | null>('reviewWeight') ?? 0;
  const testWeight = Form.useWatch<number | null>('testWeight') ?? 0;
  return (
    <>
      <Col span={8}>
        <Form.Item
          name="reviewWeight"
          label="评审成绩权重"
          rules={[{ required: true, message: '请输入评审成绩权重' }]}
          extra={finalScoreRule({ reviewWeight, testWeight })}
        >
          <InputNumber
            min={0}
            max={100}
            precision={0}
            suffix="%"
            style={{ width: '100%' }}
            onChange={(v) => {
              if (typeof v === 'number' && v >= 0 && v <= 100) form.setFieldValue('testWeight', 100 - v);
              void form.validateFields(['testWeight']).catch(() => undefined);
            }}
          />
        </Form.Item>
      </Col>
      <Col span={8}>
        <Form.Item
          name="testWeight"
          label="测试成绩权重"
          dependencies={['reviewWeight']}
          extra={automatic ? '取自私榜成绩，按最佳队伍折算为百分制' : '本题不自动评分，测试成绩权重应为0'}
          rules={[
            { required: true, message: '请输入测试成绩权重' },
            ({ getFieldValue }) => ({
              validator: async (_, v) => {
                if (typeof v === 'number' && (getFieldValue('reviewWeight') ?? 0) + v !== 100) throw new Error('评审成绩与测试成绩的权重之和须为100');
              },
            }),
          ]}
        >
          <InputNumber min={0} max={100} precision={0} suffix="%" style={{ width: '100%' }} />
        </Form.Item>
      </Col>
    </>
  );
}

/** How the judges' totals make the review score, for the aggregation chosen. */
function AggregationRule() {
  const aggregation = Form.useWatch<Aggregation | undefined>('aggregation');
  return aggregation ? REVIEW_SCORE_RULE[aggregation] : null;
}

/** The review rule of one question; read-only for those who may not edit it. */
function RuleModal({ question, onClose }: { question: ManagedQuestion; onClose: () => void }) {
  const { message } = App.useApp();
  const editable = usePermissions().has(ACTION_CODES.reviewRulesEdit);
  const rule = useQuery({ queryKey: reviewKeys.rule(question.id), queryFn: () => reviewApi.rule(question.id) });
  // The rule decides how the question's grades are made: everything about its review is read again.
  const saving = useListMutation(
    (body: ReviewRuleBody) => reviewApi.saveRule(question.id, body),
    [reviewKeys.question(question.id)],
    () => void message.success('评审规则已保存'),
  );
  const title = `评审规则：${question.title}`;

  if (!rule.data) {
    return (
      <Modal open title={title} width={860} footer={null} onCancel={onClose}>
        {rule.isError ? <Empty description="评审规则加载失败" /> : <Skeleton active paragraph={{ rows: 8 }} />}
      </Modal>
    );
  }

  const r = rule.data;
  const confirmed = r.gradeState === GRADE_STATE.confirmed;
  const save = (v: Values) =>
    saving.mutateAsync({
      ...v,
      criteria: v.criteria.map((c) => ({ ...(c.id ? { id: c.id } : {}), name: c.name, description: c.description?.trim() || null, maxScore: c.maxScore })),
    });
  const initial: Values = {
    criteria: r.criteria.length ? r.criteria : [{ name: '', description: '', maxScore: 100 }],
    judgesPerWork: r.judgesPerWork,
    aggregation: r.aggregation,
    reviewWeight: r.reviewWeight,
    testWeight: r.testWeight,
    blind: r.blind,
    disputeDays: r.disputeDays,
  };

  return (
    <FormModal<Values> title={title} name="rule" width={860} initialValues={initial} onSave={save} onClose={onClose} readOnly={!editable || confirmed}>
      {confirmed && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message="本题成绩已确认，评审规则不能再修改。" />}
      <Form.Item label="评审标准" required>
        {r.scored && !confirmed && (
          <Alert type="info" showIcon style={{ marginBottom: 12 }} message="已有专家保存评分，评审标准不能再修改；其他设置仍可调整。" />
        )}
        <CriteriaEditor locked={r.scored} />
      </Form.Item>
      <Row gutter={16}>
        <Col span={8}>
          <Form.Item name="judgesPerWork" label="每份作品评审专家数" rules={[{ required: true, message: '请输入评审专家数' }]}>
            <InputNumber min={1} max={9} precision={0} suffix="位" style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={16}>
          <Form.Item
            name="aggregation"
            label="评分合成方式"
            extra={<AggregationRule />}
            dependencies={['judgesPerWork']}
            rules={[
              { required: true, message: '请选择评分合成方式' },
              ({ getFieldValue }) => ({
                validator: async (_, v) => {
                  if (v === 'trimmed' && (getFieldValue('judgesPerWork') ?? 0) < 3) throw new Error('去掉最高分和最低分至少需要3位专家评审');
                },
              }),
            ]}
          >
            <Select options={AGGREGATIONS.map((a) => ({ value: a, label: AGGREGATION_NAMES[a] }))} />
          </Form.Item>
        </Col>
        <WeightItems automatic={Boolean(question.evaluation)} />
        <Col span={8}>
          <Form.Item name="disputeDays" label="申诉期" rules={[{ required: true, message: '请输入申诉期' }]} extra="成绩确认后可申诉的天数，0为不接受申诉">
            <InputNumber min={0} max={30} precision={0} suffix="天" style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="blind" label="盲评" valuePropName="checked" extra="盲评时专家看不到队伍信息">
            <Switch checkedChildren="是" unCheckedChildren="否" />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}

/** `review/rules`: per question of a chosen competition, how its works are reviewed and its final score is made. */
export default function RulesPage() {
  const editable = usePermissions().has(ACTION_CODES.reviewRulesEdit);
  const [editing, setEditing] = useState<ManagedQuestion | null>(null);
  return (
    <>
      <CompetitionQuestions
        title="评审规则"
        actionWidth={140}
        judgedOnly
        actions={(q) => <ActionLink onClick={() => setEditing(q)}>{editable ? '评审规则' : '查看评审规则'}</ActionLink>}
      />
      {editing && <RuleModal question={editing} onClose={() => setEditing(null)} />}
    </>
  );
}
