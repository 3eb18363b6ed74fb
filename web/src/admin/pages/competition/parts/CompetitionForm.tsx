import { AUDIT_STATUS, DEFAULT_ELIGIBILITY, fenToYuan, isValidUrl, yuanToFen, type CompetitionBody } from '@contest/shared';
import { Checkbox, Col, Divider, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMutation } from '@tanstack/react-query';
import { useIsPlatform } from '#src/common/auth.ts';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { showFieldErrors } from '#src/common/forms.ts';
import { competitionDetailApi } from '#src/api/competitions.ts';
import { DateTimePicker } from '#src/admin/components/DateTimePicker.tsx';
import { ImageUpload } from '#src/admin/components/ImageUpload.tsx';
import { useBrandOptions, useOrgOptions, useTypeOptions } from '#src/admin/components/options.ts';
import { RichTextField, richTextOrNull } from '#src/admin/components/RichTextField.tsx';
import type { CompetitionDetail } from './useCompetition.ts';
import { fromPicker, toPicker } from '#src/common/beijing.ts';
import { useReopenGuard } from '#src/admin/components/useConfirmedRetry.ts';
import { EligibilityFields } from './EligibilityFields.tsx';

type TimeField = 'regStartTime' | 'regEndTime' | 'endTime';
/** The form holds times as dayjs values and the fee as the yuan text typed in. */
type Values = Omit<CompetitionBody, TimeField | 'fee'> & Record<TimeField, Dayjs | null> & { fee: string };

const MAX_FEE_FEN = 100_000_000;

const DEFAULTS: Partial<Values> = {
  allowIndividual: true,
  invoiceEnable: true,
  minMembers: 1,
  maxMembers: 5,
  maxTeachers: 2,
  fee: '0',
  cover: null,
  worksMaxMb: 500,
  worksTypes: 'zip,rar,7z,pdf,docx',
  eligibility: DEFAULT_ELIGIBILITY,
};

function toValues(c: CompetitionDetail): Values {
  return {
    name: c.name,
    brandId: c.brandId,
    typeId: c.typeId,
    orgId: c.orgId,
    cover: c.cover,
    summary: c.summary,
    introduce: c.introduce,
    information: c.information,
    guide: c.guide,
    trainingUrl: c.trainingUrl,
    regStartTime: toPicker(c.regStartTime),
    regEndTime: toPicker(c.regEndTime),
    endTime: toPicker(c.endTime),
    allowIndividual: c.allowIndividual,
    minMembers: c.minMembers,
    maxMembers: c.maxMembers,
    maxTeachers: c.maxTeachers,
    fee: fenToYuan(c.fee),
    invoiceEnable: c.invoiceEnable,
    worksMaxMb: c.worksMaxMb,
    worksTypes: c.worksTypes,
    eligibility: c.eligibility,
  };
}

/** The request body: times as ISO strings with their offset, the fee in fen, empty editors as nothing. */
function toBody(v: Values, withOrg: boolean): CompetitionBody {
  return {
    name: v.name,
    brandId: v.brandId,
    typeId: v.typeId ?? null,
    ...(withOrg ? { orgId: v.orgId ?? null } : {}),
    cover: v.cover ?? null,
    summary: v.summary,
    introduce: richTextOrNull(v.introduce),
    information: richTextOrNull(v.information),
    guide: richTextOrNull(v.guide),
    trainingUrl: v.trainingUrl,
    regStartTime: fromPicker(v.regStartTime!),
    regEndTime: fromPicker(v.regEndTime!),
    endTime: fromPicker(v.endTime!),
    allowIndividual: v.allowIndividual,
    minMembers: v.minMembers,
    maxMembers: v.maxMembers,
    maxTeachers: v.maxTeachers,
    fee: yuanToFen(v.fee)!,
    invoiceEnable: v.invoiceEnable,
    worksMaxMb: v.worksMaxMb,
    worksTypes: v.worksTypes,
    eligibility: {
      ...v.eligibility,
      maxTeamsPerSchool: v.eligibility.maxTeamsPerSchool ?? null,
      maxTeamsPerTeacher: v.eligibility.maxTeamsPerTeacher ?? null,
      groupList:
        v.eligibility.groupMode === 'none'
          ? []
          : (v.eligibility.groupList ?? []).map((g) => ({ name: g.name, degrees: v.eligibility.groupMode === 'degree' ? (g.degrees ?? []) : [] })),
    },
  };
}

const feeRule = {
  validator: async (_: unknown, value: unknown) => {
    if (value === undefined || value === null || String(value).trim() === '') throw new Error('请输入报名费，免费请填0');
    const fen = yuanToFen(String(value));
    if (fen === null) throw new Error('报名费须为不小于0的金额，最多两位小数');
    if (fen > MAX_FEE_FEN) throw new Error('报名费不能超过1000000元');
  },
};

/** `field` must come after the time in `earlier` (strictly when `strict`). */
const laterThan =
  (earlier: TimeField, message: string, strict: boolean) =>
  ({ getFieldValue }: { getFieldValue: (n: string) => unknown }) => ({
    validator: async (_: unknown, value: Dayjs | null) => {
      const start = getFieldValue(earlier) as Dayjs | null;
      if (!value || !start) return;
      if (strict ? !value.isAfter(start) : value.isBefore(start)) throw new Error(message);
    },
  });

const urlRule = {
  validator: async (_: unknown, value: unknown) => {
    const v = typeof value === 'string' ? value.trim() : '';
    if (v && !isValidUrl(v)) throw new Error('链接格式不正确，须以http://、https://或ftp://开头');
  },
};

interface CompetitionFormProps {
  competition?: CompetitionDetail;
  /** Whether the user may change it at all (holds the edit code and the competition is not under audit). */
  editable: boolean;
  onSaved: (id: number) => void | Promise<void>;
}

/** The competition's own fields (`competitionBody`); creates it when there is none yet. */
export function CompetitionForm({ competition, editable, onSaved }: CompetitionFormProps) {
  const [form] = Form.useForm<Values>();
  // Extending the competition's end after results were published asks first (the server says what it would reopen).
  const guarded = useReopenGuard();
  // The caller tells the user and reloads what the save changed (`onSaved`), before the button stops spinning.
  const saving = useMutation({
    mutationFn: async (body: CompetitionBody) => {
      if (competition) await guarded((o) => competitionDetailApi.update(competition.id, body, o));
      await onSaved(competition?.id ?? (await competitionDetailApi.create(body)).id);
    },
  });
  // Whether the caller acts for every organisation, as the server says (its user info), so it picks the organiser.
  const isPlatform = useIsPlatform();
  const brands = useBrandOptions();
  const types = useTypeOptions();
  const orgs = useOrgOptions(isPlatform);
  // Participants registered under these: the server refuses to change them once the competition was online.
  const locked = competition?.auditStatus === AUDIT_STATUS.online || competition?.auditStatus === AUDIT_STATUS.offline;
  const lockedHint = locked ? '竞赛上线后不能修改' : undefined;
  // An explicit `disabled` overrides the form's, so locked fields state both reasons.
  const lockedOff = locked || !editable;

  async function save(values: Values) {
    try {
      await saving.mutateAsync(toBody(values, isPlatform));
    } catch (err) {
      showFieldErrors(form, err);
    }
  }

  return (
    <Form<Values>
      form={form}
      name="competition"
      layout="vertical"
      disabled={!editable}
      initialValues={competition ? toValues(competition) : DEFAULTS}
      onFinish={save}
      scrollToFirstError
      style={{ maxWidth: 1100 }}
    >
      <Row gutter={24}>
        <Col xs={24} lg={12}>
          <Form.Item
            name="name"
            label="竞赛名称"
            extra={lockedHint}
            rules={[
              { required: true, whitespace: true, message: '请输入竞赛名称' },
              { max: 100, message: '竞赛名称不能超过100个字符' },
            ]}
          >
            <Input disabled={lockedOff} />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item name="brandId" label="所属品牌" extra={lockedHint} rules={[{ required: true, message: '请选择品牌' }]}>
            <Select showSearch optionFilterProp="label" placeholder="请选择品牌" options={brands.data} loading={brands.isLoading} disabled={lockedOff} />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item name="typeId" label="竞赛类型">
            <Select allowClear placeholder="请选择类型" options={types.data} loading={types.isLoading} />
          </Form.Item>
        </Col>
        {isPlatform && (
          <Col xs={24} lg={12}>
            <Form.Item
              name="orgId"
              label="主办组织"
              extra={lockedHint ?? '组织方账号创建的竞赛自动属于其组织'}
              rules={[{ required: true, message: '请选择主办组织' }]}
            >
              <Select showSearch optionFilterProp="label" placeholder="请选择主办组织" options={orgs.data} loading={orgs.isLoading} disabled={lockedOff} />
            </Form.Item>
          </Col>
        )}
        <Col xs={24}>
          <Form.Item name="cover" label="封面图">
            <ImageUpload purpose="cover" width={240} height={135} hint="建议16:9，支持PNG、JPG、GIF、WebP，不超过2MB" />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name="summary" label="竞赛简介" rules={[{ max: 500, message: '竞赛简介不能超过500个字符' }]}>
            <Input.TextArea rows={3} showCount maxLength={500} placeholder="显示在竞赛列表中" />
          </Form.Item>
        </Col>
      </Row>

      <Divider orientation="left">时间</Divider>
      <Row gutter={24}>
        <Col xs={24} md={8}>
          <Form.Item name="regStartTime" label="报名开始时间" rules={[{ required: true, message: '请选择报名开始时间' }]}>
            <DateTimePicker />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="regEndTime"
            label="报名截止时间"
            dependencies={['regStartTime']}
            rules={[{ required: true, message: '请选择报名截止时间' }, laterThan('regStartTime', '报名截止时间须晚于报名开始时间', true)]}
          >
            <DateTimePicker />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="endTime"
            label="竞赛结束时间"
            dependencies={['regEndTime']}
            rules={[{ required: true, message: '请选择竞赛结束时间' }, laterThan('regEndTime', '竞赛结束时间不能早于报名截止时间', false)]}
          >
            <DateTimePicker />
          </Form.Item>
        </Col>
      </Row>

      <Divider orientation="left">报名与组队</Divider>
      <Row gutter={24}>
        <Col xs={24} md={8}>
          <Form.Item name="fee" label="报名费" extra={lockedHint ?? '单位：元，免费请填0'} rules={[feeRule]}>
            <Input addonAfter="元" inputMode="decimal" disabled={lockedOff} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="allowIndividual" label="个人参赛" valuePropName="checked">
            <Checkbox disabled={lockedOff}>允许以个人身份参赛（不组队）</Checkbox>
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="invoiceEnable"
            label="发票"
            valuePropName="checked"
            extra="开放后，已缴费的队伍可在个人中心为报名费申请发票；开票单位和发票类型由平台的「发票配置」统一设置"
          >
            <Checkbox>开放发票申请</Checkbox>
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="minMembers" label="每队最少人数" rules={[{ required: true, message: '请输入最少人数' }]}>
            <InputNumber min={1} max={20} precision={0} style={{ width: '100%' }} disabled={lockedOff} />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item
            name="maxMembers"
            label="每队最多人数"
            dependencies={['minMembers']}
            rules={[
              { required: true, message: '请输入最多人数' },
              ({ getFieldValue }) => ({
                validator: async (_, value: number | null) => {
                  if (value != null && value < getFieldValue('minMembers')) throw new Error('最多人数不能少于最少人数');
                },
              }),
            ]}
          >
            <InputNumber min={1} max={20} precision={0} style={{ width: '100%' }} disabled={lockedOff} />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="maxTeachers" label="指导老师最多人数" rules={[{ required: true, message: '请输入指导老师人数' }]}>
            <InputNumber min={0} max={10} precision={0} style={{ width: '100%' }} disabled={lockedOff} />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="worksMaxMb" label="作品大小上限（MB）" rules={[{ required: true, message: '请输入作品大小上限' }]}>
            <InputNumber min={1} max={10240} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} md={16}>
          <Form.Item
            name="worksTypes"
            label="允许的作品格式"
            extra="以逗号分隔的扩展名"
            rules={[{ required: true, whitespace: true, message: '请填写允许的作品格式' }]}
          >
            <Input placeholder="zip,rar,7z,pdf,docx" />
          </Form.Item>
        </Col>
        <Col xs={24} md={16}>
          <Form.Item name="trainingUrl" label="训练平台地址" extra="“训练平台”菜单打开的地址" rules={[urlRule]}>
            <Input placeholder="https://" />
          </Form.Item>
        </Col>
      </Row>

      <Divider orientation="left">参赛资格</Divider>
      <EligibilityFields locked={lockedOff} />

      <Divider orientation="left">详细内容</Divider>
      <Form.Item name="introduce" label="竞赛介绍">
        <RichTextField readOnly={!editable} placeholder="赛事背景、参赛对象、赛程安排、奖项设置等" />
      </Form.Item>
      <Form.Item name="information" label="竞赛信息">
        <RichTextField readOnly={!editable} placeholder="报名须知、组织机构、联系方式等" />
      </Form.Item>
      <Form.Item name="guide" label="赛前指导">
        <RichTextField readOnly={!editable} placeholder="赛前培训、参考资料等" />
      </Form.Item>

      {editable && (
        <Space>
          <GuardedButton type="primary" htmlType="submit" loading={saving.isPending}>
            {competition ? '保存' : '创建竞赛'}
          </GuardedButton>
        </Space>
      )}
    </Form>
  );
}
