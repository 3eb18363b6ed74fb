import {
  MENU_DESCRIPTIONS,
  REAL_NAME_MENUS,
  WINDOW_KINDS,
  isRealNameMenu,
  beijingMinute,
  deadlineText,
  presetOpen,
  submissionWindow,
  type LifecyclePreset,
  type MenuCode,
  type PresetBatchBody,
  type Preset,
  type PresetField,
  type Stage,
  type WindowKind,
} from '@contest/shared';
import { ExclamationCircleOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Row, Select, Skeleton, Space, Switch, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { memo, useEffect, useMemo, useState } from 'react';
import { competitionDetailKeys, presetApi } from '#src/api/competitions.ts';
import { HttpError, sysTime } from '#src/common/http.ts';
import { formatMinute } from '#src/common/time.ts';
import { DateTimeRangePicker } from '#src/admin/components/DateTimePicker.tsx';
import { checkRegFields, RegFieldDesigner } from './RegFieldDesigner.tsx';
import { useCompetition } from './useCompetition.ts';
import { ConfirmDeclined, useReopenGuard } from '#src/admin/components/useConfirmedRetry.ts';
import { fromPickerOrNull, toPickerOrNull } from '#src/common/beijing.ts';

const UNSAVED = '有未保存的修改';

interface MenuValues {
  enable: boolean;
  window: [Dayjs | null, Dayjs | null] | null;
  /** For 选择赛题, 提交作品 and 提交测试: the stage whose end is the deadline; 0 for the competition's end. */
  deadlineStageId?: number;
  /** 报名, 赛题与数据, 提交作品 and 提交测试: the action is kept for people who completed 实名认证. */
  realName?: boolean;
  fieldList?: PresetField[];
}

/** The menus whose end is a deadline (lifecycle.ts `WINDOW_KINDS`). */
const isWindow = (code: MenuCode): code is WindowKind => (WINDOW_KINDS as readonly string[]).includes(code);
type MenusValues = Partial<Record<MenuCode, MenuValues>>;

const toValues = (p: Preset): MenuValues => ({
  enable: p.enable,
  window: [toPickerOrNull(p.enableStartTime), toPickerOrNull(p.enableEndTime)],
  ...(isWindow(p.menuCode) ? { deadlineStageId: p.deadlineStageId ?? 0 } : {}),
  ...(isRealNameMenu(p.menuCode) ? { realName: p.realName } : {}),
  ...(p.menuCode === 'REG_SET' ? { fieldList: p.fieldList } : {}),
});

const cleanFields = (fields: PresetField[] | undefined) =>
  (fields ?? []).map((f) => ({
    ...f,
    label: f.label.trim(),
    description: f.description?.trim() || null,
    otherParams: { required: f.otherParams?.required ?? false, ...(f.name === 'organization' && f.otherParams?.schoolList ? { schoolList: true } : {}) },
  }));

/** What a menu's values amount to, so that values equal to the saved ones count as unchanged. */
const fingerprint = (v: MenuValues | undefined) =>
  JSON.stringify([
    Boolean(v?.enable),
    fromPickerOrNull(v?.window?.[0]),
    fromPickerOrNull(v?.window?.[1]),
    v?.deadlineStageId ?? 0,
    Boolean(v?.realName),
    cleanFields(v?.fieldList).map((f) => [f.name, f.label, f.description, f.otherParams.required, Boolean(f.otherParams.schoolList)]),
  ]);

const toBody = (code: MenuCode, v: MenuValues) => ({
  enable: v.enable,
  enableStartTime: fromPickerOrNull(v.window?.[0]),
  enableEndTime: fromPickerOrNull(v.window?.[1]),
  ...(isWindow(code) ? { deadlineStageId: v.deadlineStageId || null } : {}),
  ...(isRealNameMenu(code) ? { realName: Boolean(v.realName) } : {}),
  // Only the registration menu has fields; the server refuses them elsewhere.
  ...(code === 'REG_SET' ? { fieldList: cleanFields(v.fieldList) } : {}),
});

/** The form field a server error of `presets.<code>.<field>...` belongs beside. */
function fieldOf(path: string): [MenuCode, 'enable' | 'window' | 'deadlineStageId' | 'realName' | 'fieldList'] | null {
  const [root, code, field] = path.split('.');
  if (root !== 'presets' || !code) return null;
  if (field === 'enableStartTime' || field === 'enableEndTime') return [code as MenuCode, 'window'];
  if (field === 'deadlineStageId') return [code as MenuCode, 'deadlineStageId'];
  if (field === 'realName') return [code as MenuCode, 'realName'];
  if (field === 'fieldList') return [code as MenuCode, 'fieldList'];
  return [code as MenuCode, 'enable'];
}

const windowText = (p: Preset) =>
  !p.enableStartTime && !p.enableEndTime
    ? '不限'
    : `${p.enableStartTime ? formatMinute(p.enableStartTime) : '不限'} 至 ${p.enableEndTime ? formatMinute(p.enableEndTime) : '不限'}`;

/** The saved state of a menu, as participants meet it now. */
function PresetStatus({ preset }: { preset: Preset }) {
  const now = sysTime();
  if (!preset.enable) return <Tag title="已保存的状态">未启用</Tag>;
  if (presetOpen(preset, now))
    return (
      <Tag color="green" title="已保存的状态">
        开放中
      </Tag>
    );
  if (preset.enableEndTime && preset.enableEndTime < now.toISOString()) return <Tag title="已保存的状态">已过开放时间</Tag>;
  return (
    <Tag color="blue" title="已保存的状态">
      未到开放时间
    </Tag>
  );
}

/** The presets at a glance, for reading: one line each, the registration fields listed in order. */
function PresetSummary({ presets, schedule }: { presets: Preset[]; schedule: Schedule | undefined }) {
  return (
    <Table<Preset>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={presets}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: '暂无菜单设置' }}
      columns={[
        { title: '菜单', width: 140, dataIndex: 'name' },
        { title: '状态', width: 120, render: (_, p) => <PresetStatus preset={p} /> },
        { title: '开放时间', width: 320, render: (_, p) => windowText(p) },
        {
          title: '截止时间',
          width: 300,
          render: (_, p) =>
            isWindow(p.menuCode) && schedule ? deadlineText(submissionWindow({ endTime: schedule.endTime }, schedule.stages, presets, p.menuCode)) : '',
        },
        { title: '实名要求', width: 100, render: (_, p) => (isRealNameMenu(p.menuCode) ? p.realName ? <Tag color="blue">需实名</Tag> : '不要求' : '') },
        {
          title: '报名字段',
          render: (_, p) =>
            p.menuCode === 'REG_SET' &&
            (p.fieldList.length ? p.fieldList.map((f) => <Tag key={f.name}>{f.otherParams?.required ? `${f.label}（必填）` : f.label}</Tag>) : '未选择'),
        },
      ]}
    />
  );
}

const windowRule = {
  validator: async (_: unknown, window: MenuValues['window']) => {
    if (window?.[0] && window[1] && !window[1].isAfter(window[0])) throw new Error('结束时间须晚于开始时间');
  },
};
const regFieldsRule = {
  validator: async (_: unknown, fields: PresetField[]) => {
    const msg = checkRegFields(fields);
    if (msg) throw new Error(msg);
  },
};

/** What a window's deadline may be taken from: the competition's end and its stages. */
interface Schedule {
  endTime: string;
  stages: Stage[];
}

/** The window menus as the form holds them now, for the deadline they would have once saved. */
function windowPresets(all: MenusValues | undefined): LifecyclePreset[] {
  return WINDOW_KINDS.flatMap((menuCode) => {
    const v = all?.[menuCode];
    if (!v) return [];
    return [
      {
        menuCode,
        enable: Boolean(v.enable),
        enableStartTime: fromPickerOrNull(v.window?.[0]),
        enableEndTime: fromPickerOrNull(v.window?.[1]),
        deadlineStageId: v.deadlineStageId || null,
      },
    ];
  });
}

/**
 * A window menu's deadline, chosen explicitly: the competition's end or the end of one of its stages (a stage without
 * an end cannot be chosen). Under it, the deadline the menu has with the form as it stands, and where it comes from.
 */
function DeadlineField({ code, schedule }: { code: WindowKind; schedule: Schedule }) {
  const form = Form.useFormInstance<MenusValues>();
  const all = Form.useWatch((values: MenusValues) => values, { form, preserve: true });
  const window = submissionWindow({ endTime: schedule.endTime }, schedule.stages, windowPresets(all), code);
  // 选择赛题 without a stage of its own follows the submission menus' stages (lifecycle.ts submissionWindow): its first
  // option says so, not the competition's end it would otherwise seem to mean.
  const options = [
    {
      value: 0,
      label:
        code === 'CHOICE_SET'
          ? '随提交截止（提交作品、提交测试所选阶段中较晚的；都未选时为竞赛结束时间）'
          : `竞赛结束时间（${beijingMinute(schedule.endTime)}）`,
    },
    ...schedule.stages.map((s) => ({
      value: s.id,
      disabled: !s.endDate,
      label: s.endDate ? `阶段「${s.name}」结束（${beijingMinute(s.endDate)}）` : `阶段「${s.name}」（未设结束时间，不可选）`,
    })),
  ];
  return (
    <Form.Item
      name={[code, 'deadlineStageId']}
      label="截止时间"
      style={{ marginBottom: 8 }}
      extra={<span data-testid={`deadline-${code}`}>开放时间的结束早于它时以开放时间为准。现在的截止时间：{deadlineText(window)}，北京时间</span>}
    >
      <Select style={{ width: '100%', maxWidth: 360 }} options={options} aria-label={`${MENU_LABELS[code]}的截止时间`} />
    </Form.Item>
  );
}
const MENU_LABELS: Record<WindowKind, string> = { CHOICE_SET: '选择赛题', SUBMIT_WORKS: '提交作品', SUBMIT_TEST: '提交测试' };

/**
 * One menu of the competition's page on the site: on or off, open in a window of time, and for registration its form.
 * Memoised: its fields follow the form by themselves, so a change elsewhere on the form need not render it again.
 */
const MenuCard = memo(function MenuCard({ preset, changed, schedule }: { preset: Preset; changed: boolean; schedule: Schedule | undefined }) {
  const code = preset.menuCode;
  return (
    <Card
      size="small"
      data-testid="menu-card"
      style={changed ? { borderColor: '#faad14', boxShadow: '0 0 0 1px #faad14' } : undefined}
      title={
        <Space wrap size={4}>
          <span style={{ marginRight: 4 }}>{preset.name}</span>
          <PresetStatus preset={preset} />
          {changed && <Tag color="orange">未保存</Tag>}
        </Space>
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        {MENU_DESCRIPTIONS[code]}
      </Typography.Paragraph>
      <Row gutter={16}>
        <Col flex="none">
          <Form.Item name={[code, 'enable']} label="启用" valuePropName="checked" style={{ marginBottom: 8 }}>
            <Switch aria-label={`启用${preset.name}`} />
          </Form.Item>
        </Col>
        <Col flex="auto">
          <Form.Item name={[code, 'window']} label="开放时间" rules={[windowRule]} extra="不填表示不限" style={{ marginBottom: 8 }}>
            <DateTimeRangePicker style={{ width: '100%', maxWidth: 360 }} aria-label={`${preset.name}的开放时间`} />
          </Form.Item>
        </Col>
      </Row>
      {isWindow(code) && schedule && <DeadlineField code={code} schedule={schedule} />}
      {isRealNameMenu(code) && (
        <Form.Item
          name={[code, 'realName']}
          label="实名要求"
          valuePropName="checked"
          style={{ marginBottom: 8 }}
          extra={
            code === 'SUBMIT_WORKS' || code === 'SUBMIT_TEST'
              ? `开启后，队伍全体队员完成实名认证才能${REAL_NAME_MENUS[code]}`
              : `开启后，完成实名认证的用户才能${REAL_NAME_MENUS[code]}`
          }
        >
          <Switch aria-label={`${preset.name}需实名认证`} checkedChildren="需实名" unCheckedChildren="不要求" />
        </Form.Item>
      )}
      {code === 'REG_SET' && (
        <Form.Item name={[code, 'fieldList']} label="报名字段" rules={[regFieldsRule]} style={{ marginBottom: 0 }}>
          <RegFieldDesigner />
        </Form.Item>
      )}
    </Card>
  );
});

/**
 * Every menu of the competition on one form with one save: what changed is marked on its card and in the bar above,
 * and all changed menus go to the server in one request, saved together or not at all.
 */
function MenusForm({
  competitionId,
  presets,
  schedule,
  onDirtyChange,
  onSaved,
}: {
  competitionId: number;
  presets: Preset[];
  schedule: Schedule | undefined;
  onDirtyChange?: (dirty: boolean) => void;
  onSaved: () => void;
}) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<MenusValues>();
  const guarded = useReopenGuard();
  const saving = useMutation({
    mutationFn: (body: PresetBatchBody) => guarded((o) => presetApi.saveBatch(competitionId, body, o)),
    onSuccess: (saved) => {
      void message.success('菜单设置已保存');
      // The form starts again from what the server now holds.
      client.setQueryData(competitionDetailKeys.part(competitionId, 'presets'), saved);
      onSaved();
    },
  });
  const [refusal, setRefusal] = useState<string | null>(null);
  const initialValues = useMemo(() => Object.fromEntries(presets.map((p) => [p.menuCode, toValues(p)])) as MenusValues, [presets]);
  const values = Form.useWatch((all: MenusValues) => all, { form, preserve: true });
  const changed = useMemo(
    () => (values ? presets.filter((p) => values[p.menuCode] && fingerprint(values[p.menuCode]) !== fingerprint(toValues(p))) : []),
    [values, presets],
  );
  const dirty = changed.length > 0;
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  const reg = presets.find((p) => p.menuCode === 'REG_SET');
  const others = presets.filter((p) => p !== reg);

  async function save() {
    setRefusal(null);
    let all: MenusValues;
    try {
      await form.validateFields();
      all = form.getFieldsValue(true) as MenusValues;
    } catch {
      return;
    }
    const body: PresetBatchBody = { presets: Object.fromEntries(changed.map((p) => [p.menuCode, toBody(p.menuCode, all[p.menuCode]!)])) };
    try {
      await saving.mutateAsync(body);
    } catch (err) {
      if (err instanceof ConfirmDeclined) return setRefusal('未保存：这些修改会重新开放已截止的提交，您选择了不重新开放。');
      if (!(err instanceof HttpError)) throw err;
      const fields = Object.entries(err.fields ?? {});
      const placed = fields.map(([path, msg]) => [fieldOf(path), msg] as const).filter(([name]) => name && presets.some((p) => p.menuCode === name[0]));
      form.setFields(placed.map(([name, msg]) => ({ name, errors: [msg] })) as Parameters<typeof form.setFields>[0]);
      if (placed.length) form.scrollToField(placed[0]![0]!, { block: 'center' });
      setRefusal(placed.length ? '未保存：请按提示修改标红的菜单后再保存，其他菜单的修改也尚未保存。' : err.message);
    }
  }

  function reset() {
    form.resetFields();
    setRefusal(null);
  }

  const enabled = presets.filter((p) => p.enable).length;
  return (
    <Form<MenusValues> form={form} name="menus" layout="vertical" initialValues={initialValues} onFinish={save} scrollToFirstError={{ block: 'center' }}>
      <div
        role="toolbar"
        aria-label="菜单设置操作"
        style={{
          position: 'sticky',
          top: 0,
          zIndex: 3,
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 8,
          padding: '8px 12px',
          marginBottom: 12,
          background: dirty ? '#fffbe6' : '#fafafa',
          border: `1px solid ${dirty ? '#ffe58f' : '#f0f0f0'}`,
          borderRadius: 6,
        }}
      >
        <span style={{ flex: '1 1 240px' }}>
          {dirty ? (
            <>
              <Tag color="warning" icon={<ExclamationCircleOutlined />} style={{ marginRight: 8 }}>
                {UNSAVED}
              </Tag>
              <Typography.Text>已修改 {changed.map((p) => p.name).join('、')}</Typography.Text>
            </>
          ) : (
            <Typography.Text type="secondary">
              菜单决定竞赛页面在前台显示哪些栏目、何时开放。已启用 {enabled} / {presets.length} 项，全部已保存。
            </Typography.Text>
          )}
        </span>
        <Space>
          <Button onClick={reset} disabled={!dirty || saving.isPending}>
            重置
          </Button>
          <Button type="primary" htmlType="submit" loading={saving.isPending} disabled={!dirty}>
            保存菜单设置
          </Button>
        </Space>
      </div>
      {refusal && <Alert type="error" showIcon closable message={refusal} style={{ marginBottom: 12 }} onClose={() => setRefusal(null)} />}
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        {reg && <MenuCard preset={reg} changed={changed.includes(reg)} schedule={schedule} />}
        <Row gutter={[12, 12]}>
          {others.map((p) => (
            <Col key={p.menuCode} xs={24} xl={12}>
              <MenuCard preset={p} changed={changed.includes(p)} schedule={schedule} />
            </Col>
          ))}
        </Row>
      </Space>
    </Form>
  );
}

/**
 * The ten menu presets (spec §3) that decide which tabs the competition's page shows and when. `resetKey` changing
 * drops unsaved changes (the editor's "leave anyway"); `onDirtyChange` tells the editor whether there are any.
 */
export function PresetsPanel({
  competitionId,
  editable,
  lockedReason,
  resetKey = 0,
  onDirtyChange,
}: {
  competitionId: number;
  editable: boolean;
  /** Why the menus are read-only now (the competition is in audit), said above them instead of a save that would fail. */
  lockedReason?: string;
  resetKey?: number;
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const presets = useQuery({
    queryKey: competitionDetailKeys.part(competitionId, 'presets'),
    queryFn: () => presetApi.list(competitionId),
  });
  // Only a save starts the form again, from the list the save answered; a refetch for another reason (another tab of
  // the editor saved the competition) updates the saved-state tags and leaves the form as the organiser typed it.
  const [saves, setSaves] = useState(0);
  const competition = useCompetition(competitionId);
  const schedule = competition.data ? { endTime: competition.data.endTime, stages: competition.data.stages } : undefined;
  if (presets.isLoading) return <Skeleton active />;
  if (!editable)
    return (
      <>
        {lockedReason && <Alert type="info" showIcon style={{ marginBottom: 12 }} message={lockedReason} />}
        <PresetSummary presets={presets.data ?? []} schedule={schedule} />
      </>
    );
  if (!presets.data) return null;
  return (
    <MenusForm
      key={`${resetKey}:${saves}`}
      competitionId={competitionId}
      presets={presets.data}
      schedule={schedule}
      onDirtyChange={onDirtyChange}
      onSaved={() => setSaves((n) => n + 1)}
    />
  );
}
