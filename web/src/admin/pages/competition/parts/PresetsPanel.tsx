import { presetOpen, type Preset, type PresetField } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Card, Form, Skeleton, Space, Switch, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { GuardedButton } from '../../../../common/GuardedButton.tsx';
import { showFieldErrors } from '../../../../common/forms.ts';
import { http, sysTime } from '../../../../common/http.ts';
import { formatMinute } from '../../../../common/time.ts';
import { DateTimeRangePicker } from '../../../components/DateTimePicker.tsx';
import { checkRegFields, RegFieldDesigner } from './RegFieldDesigner.tsx';
import { competitionKey } from './useCompetition.ts';

interface PresetValues {
  enable: boolean;
  window: [Dayjs | null, Dayjs | null] | null;
  fieldList?: PresetField[];
}

const toValues = (p: Preset): PresetValues => ({
  enable: p.enable,
  window: [p.enableStartTime ? dayjs(p.enableStartTime) : null, p.enableEndTime ? dayjs(p.enableEndTime) : null],
  fieldList: p.fieldList,
});

/** One menu of the competition's page on the site: on or off, open in a window of time, and for registration its form. */
function PresetCard({ preset, editable, onSaved }: { preset: Preset; editable: boolean; onSaved: () => Promise<unknown> }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<PresetValues>();
  const [saving, setSaving] = useState(false);
  const isReg = preset.menuCode === 'REG_SET';

  async function save(v: PresetValues) {
    setSaving(true);
    try {
      await http.put(`/api/competition/preset/${preset.id}`, {
        enable: v.enable,
        enableStartTime: v.window?.[0]?.format() ?? null,
        enableEndTime: v.window?.[1]?.format() ?? null,
        // Only the registration menu has fields; the server refuses them elsewhere.
        ...(isReg ? { fieldList: (v.fieldList ?? []).map((f) => ({ ...f, label: f.label.trim(), description: f.description?.trim() || null })) } : {}),
      });
      void message.success(`“${preset.name}”已保存`);
      await onSaved();
    } catch (err) {
      showFieldErrors(form, err);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card
      size="small"
      title={
        <Space>
          {preset.name}
          <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
            {preset.menuCode}
          </Typography.Text>
          <PresetStatus preset={preset} />
        </Space>
      }
      extra={
        editable && (
          <GuardedButton type="primary" size="small" loading={saving} onClick={() => form.submit()}>
            保存
          </GuardedButton>
        )
      }
    >
      <Form<PresetValues> form={form} name={`preset_${preset.menuCode}`} layout="inline" initialValues={toValues(preset)} onFinish={save} disabled={!editable} style={{ rowGap: 8 }}>
        <Form.Item name="enable" label="启用" valuePropName="checked">
          <Switch aria-label={`启用${preset.name}`} />
        </Form.Item>
        <Form.Item name="window" label="开放时间" extra="不填表示不限">
          <DateTimeRangePicker />
        </Form.Item>
        {isReg && (
          <Form.Item
            name="fieldList"
            label="报名字段"
            style={{ width: '100%', marginTop: 8 }}
            rules={[{ validator: async (_, fields: PresetField[]) => { const msg = checkRegFields(fields); if (msg) throw new Error(msg); } }]}
          >
            <RegFieldDesigner disabled={!editable} />
          </Form.Item>
        )}
      </Form>
    </Card>
  );
}

const windowText = (p: Preset) =>
  !p.enableStartTime && !p.enableEndTime ? '不限' : `${p.enableStartTime ? formatMinute(p.enableStartTime) : '不限'} 至 ${p.enableEndTime ? formatMinute(p.enableEndTime) : '不限'}`;

function PresetStatus({ preset }: { preset: Preset }) {
  if (presetOpen(preset, sysTime())) return <Tag color="green">开放中</Tag>;
  return <Tag>{preset.enable ? '未到开放时间' : '未启用'}</Tag>;
}

/** The presets at a glance, for reading: one line each, the registration fields listed in order. */
function PresetSummary({ presets }: { presets: Preset[] }) {
  return (
    <Table<Preset>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={presets}
      locale={{ emptyText: '暂无菜单设置' }}
      columns={[
        { title: '菜单', width: 140, dataIndex: 'name' },
        { title: '状态', width: 120, render: (_, p) => <PresetStatus preset={p} /> },
        { title: '开放时间', width: 320, render: (_, p) => windowText(p) },
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

/** The ten menu presets (spec §3) that decide which tabs the competition's page shows and when. */
export function PresetsPanel({ competitionId, editable }: { competitionId: number; editable: boolean }) {
  const client = useQueryClient();
  const presets = useQuery({
    queryKey: competitionKey(competitionId, 'presets'),
    queryFn: () => http.get<Preset[]>(`/api/competition/preset/public/list/${competitionId}`),
  });
  if (presets.isLoading) return <Skeleton active />;
  if (!editable) return <PresetSummary presets={presets.data ?? []} />;
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      {presets.data?.map((p) => (
        <PresetCard
          // A saved preset starts its form again from what the server now holds.
          key={`${p.id}:${p.enable}:${p.enableStartTime}:${p.enableEndTime}:${JSON.stringify(p.fieldList)}`}
          preset={p}
          editable={editable}
          onSaved={() => client.invalidateQueries({ queryKey: competitionKey(competitionId, 'presets') })}
        />
      ))}
    </Space>
  );
}
