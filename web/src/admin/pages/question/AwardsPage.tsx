import { ACTION_CODES, GRADE_STATE, type AwardLevel, type AwardLevelsBody, type Grade } from '@contest/shared';
import { DeleteOutlined, PlusOutlined, SaveOutlined, TrophyOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Flex, Form, Input, InputNumber, Row, Select, Space, Tag, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { gradeApi, gradeKeys, gradeUrls } from '#src/api/grades.ts';
import { usePermissions } from '#src/common/auth.ts';
import { DownloadButton } from '#src/common/DownloadButton.tsx';
import { showFieldErrors } from '#src/common/forms.ts';
import { GradeTable } from '../../components/GradeTable.tsx';
import { QuestionHeader, QuestionScope } from '../../components/QuestionScope.tsx';
import { reviewKey, useGradeSummary } from '../../components/review.ts';
import { useEarlyWarning, withEarlyWarning } from '../../components/earlyWarning.tsx';
import { useConfirm } from '../../components/useConfirm.ts';
import { useListMutation } from '#src/common/usePagedList.ts';

const MAX_LEVELS = 20;
const PRESET = ['特等奖', '一等奖', '二等奖', '三等奖', '优秀奖'];

type Row = AwardLevelsBody['levels'][number];
type Values = { levels: Row[] };

const useAwardLevels = (questionId: number) => useQuery({ queryKey: gradeKeys.awards(questionId), queryFn: () => gradeApi.awards(questionId) });

const toRows = (levels: AwardLevel[]): Row[] => levels.map((l) => ({ id: l.id, name: l.name, rankFrom: l.rankFrom, rankTo: l.rankTo }));

/** The award levels (name and rank range), saving them, and giving the awards by rank. */
function LevelsCard({ questionId }: { questionId: number }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const client = useQueryClient();
  const editable = usePermissions().has(ACTION_CODES.gradeEdit);
  const levels = useAwardLevels(questionId);
  const confirmed = useGradeSummary(questionId).data?.gradeState === GRADE_STATE.confirmed;
  const early = useEarlyWarning(questionId);
  const [form] = Form.useForm<Values>();
  // Changes the user made and has not saved; programmatic fills (load, save) do not count.
  const [dirty, setDirty] = useState(false);
  // Levels and awards change the question's grades (their awards) as well.
  const question = [reviewKey(questionId)];
  const saving = useListMutation(
    (body: AwardLevelsBody) => gradeApi.saveAwards(questionId, body),
    question,
    () => void message.success('奖项设置已保存'),
  );
  const applying = useListMutation(
    () => gradeApi.applyAwards(questionId),
    question,
    () => void message.success('已按名次评奖'),
  );

  // The saved levels fill the form, unless the user has started changing it.
  useEffect(() => {
    if (levels.data && !dirty) form.setFieldsValue({ levels: toRows(levels.data) });
  }, [levels.data, form, dirty]);

  async function save() {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      await saving.mutateAsync({
        levels: (v.levels ?? []).map((l) => ({ ...(l.id ? { id: l.id } : {}), name: l.name.trim(), rankFrom: l.rankFrom ?? null, rankTo: l.rankTo ?? null })),
      });
      // Start again from what the server kept (new rows now have ids), with nothing left unsaved.
      form.resetFields();
      form.setFieldsValue({ levels: toRows(client.getQueryData<AwardLevel[]>(gradeKeys.awards(questionId)) ?? []) });
      setDirty(false);
    } catch (err) {
      showFieldErrors(form, err);
    }
  }

  /** Fills in the usual levels, keeping the id and ranks of those that already exist. */
  function preset() {
    const current: Row[] = form.getFieldValue('levels') ?? [];
    const fill = () => {
      form.setFieldsValue({ levels: PRESET.map((name) => current.find((l) => l.name === name) ?? { name, rankFrom: null, rankTo: null }) });
      setDirty(true);
    };
    if (current.some((l) => l.name && !PRESET.includes(l.name)))
      confirm('预设奖项将替换当前的奖项列表（同名奖项保留名次范围）。确定替换吗？', async () => fill());
    else fill();
  }

  const apply = () => {
    if (dirty) {
      void message.warning('奖项设置有未保存的修改，请先保存');
      return;
    }
    confirm(
      withEarlyWarning(
        early('现在评定的奖项可能不是最终结果'),
        '将按各奖项的名次范围为队伍评奖，名次不在任何范围内的队伍将没有奖项；手动设置过奖项的队伍保持不变。确定评奖吗？',
      ),
      () => applying.mutateAsync(),
    );
  };

  const applyBlocked = !confirmed
    ? '成绩确认后才能按名次评奖'
    : !levels.data?.some((l) => l.rankFrom !== null)
      ? '请先为奖项填写名次范围并保存（例如一等奖第1至3名）'
      : null;

  return (
    <Card
      title="奖项设置"
      loading={levels.isLoading}
      extra={
        editable && (
          <Space>
            <Button onClick={preset}>预设奖项</Button>
            <Button icon={<SaveOutlined />} loading={saving.isPending} onClick={save}>
              保存
            </Button>
            {/* A disabled button says why: a tooltip on its wrapper, since a disabled button takes no hover. */}
            <Tooltip title={applyBlocked}>
              <span>
                <Button type="primary" icon={<TrophyOutlined />} disabled={Boolean(applyBlocked)} onClick={apply}>
                  按名次评奖
                </Button>
              </span>
            </Tooltip>
          </Space>
        )
      }
    >
      {!confirmed && <Alert type="info" showIcon style={{ marginBottom: 16 }} message="成绩确认后才能评奖；奖项可以先行设置。" />}
      <Form form={form} name="awards" disabled={!editable} onValuesChange={() => setDirty(true)}>
        <Form.List name="levels">
          {(fields, { add, remove }, { errors }) => (
            <>
              {fields.map((field) => (
                <Row key={field.key} gutter={8} wrap={false} align="top">
                  <Form.Item name={[field.name, 'id']} hidden>
                    <InputNumber />
                  </Form.Item>
                  <Col flex="220px">
                    <Form.Item name={[field.name, 'name']} rules={[{ required: true, whitespace: true, message: '请输入奖项名称' }]}>
                      <Input placeholder="奖项名称" maxLength={30} />
                    </Form.Item>
                  </Col>
                  <Col flex="150px">
                    <Form.Item name={[field.name, 'rankFrom']}>
                      <InputNumber placeholder="起始名次" prefix="第" min={1} precision={0} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                  <Col flex="170px">
                    <Form.Item
                      name={[field.name, 'rankTo']}
                      dependencies={[['levels', field.name, 'rankFrom']]}
                      rules={[
                        ({ getFieldValue }) => ({
                          validator: async (_, to: number | null | undefined) => {
                            const from: number | null | undefined = getFieldValue(['levels', field.name, 'rankFrom']);
                            if ((typeof from === 'number') !== (typeof to === 'number')) throw new Error('名次范围须同时填写起止名次');
                            if (from && to && from > to) throw new Error('截止名次不能小于起始名次');
                          },
                        }),
                      ]}
                    >
                      <InputNumber placeholder="截止名次" prefix="至" suffix="名" min={1} precision={0} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                  {editable && (
                    <Col flex="32px">
                      <Tooltip title="删除">
                        <Button type="text" danger icon={<DeleteOutlined />} aria-label="删除奖项" onClick={() => remove(field.name)} />
                      </Tooltip>
                    </Col>
                  )}
                </Row>
              ))}
              <Form.ErrorList errors={errors} />
              {!fields.length && <p className="admin-hint">尚未设置奖项{editable && '，可点击“预设奖项”快速填入常用奖项'}</p>}
              {editable && (
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  disabled={fields.length >= MAX_LEVELS}
                  onClick={() => add({ name: '', rankFrom: null, rankTo: null })}
                >
                  添加奖项{fields.length >= MAX_LEVELS && `（最多${MAX_LEVELS}个）`}
                </Button>
              )}
            </>
          )}
        </Form.List>
      </Form>
      <p className="admin-hint" style={{ marginTop: 12, marginBottom: 0 }}>
        名次范围留空的奖项不参与按名次评奖，只能在下方为队伍手动设置。
      </p>
    </Card>
  );
}

/** A team's award, chosen by hand among the saved levels. */
function AwardPicker({ grade, levels }: { grade: Grade; levels: AwardLevel[] }) {
  const { message } = App.useApp();
  const setting = useListMutation(
    (awardId: number | null) => gradeApi.setTeamAward(grade.questionId, grade.teamId, awardId),
    [reviewKey(grade.questionId)],
    (_, awardId) => void message.success(awardId ? '奖项已设置' : '已取消该队伍的奖项'),
  );
  const saving = setting.isPending;
  async function change(awardId: number | null) {
    try {
      await setting.mutateAsync(awardId);
    } catch {
      // the http client has told the user why
    }
  }
  return (
    <Space size={4}>
      <Select
        aria-label={`${grade.teamName}的奖项`}
        size="small"
        style={{ width: 130 }}
        loading={saving}
        disabled={saving}
        value={grade.awardId ?? 0}
        options={[{ value: 0, label: '无' }, ...levels.map((l) => ({ value: l.id, label: l.name }))]}
        onChange={(v: number) => void change(v || null)}
      />
      {grade.awardManual && <Tag>手动</Tag>}
    </Space>
  );
}

/** `/question/awards/:questionId`: award levels, awarding by rank, and each team's award. */
export default function AwardsPage() {
  const editable = usePermissions().has(ACTION_CODES.gradeEdit);
  return (
    <QuestionScope>
      {(question) => (
        <Flex vertical gap={16}>
          <QuestionHeader question={question} current="awards" />
          <LevelsCard questionId={question.id} />
          <Card
            title="获奖名单"
            extra={
              <DownloadButton type="default" size="middle" url={gradeUrls.exportPrizes(question.id)}>
                导出获奖名单
              </DownloadButton>
            }
          >
            <TeamAwards questionId={question.id} competitionId={question.competitionId} editable={editable} />
          </Card>
        </Flex>
      )}
    </QuestionScope>
  );
}

function TeamAwards({ questionId, competitionId, editable }: { questionId: number; competitionId: number; editable: boolean }) {
  const levels = useAwardLevels(questionId);
  return (
    <GradeTable
      questionId={questionId}
      competitionId={competitionId}
      award={editable ? (g) => <AwardPicker grade={g} levels={levels.data ?? []} /> : undefined}
    />
  );
}
