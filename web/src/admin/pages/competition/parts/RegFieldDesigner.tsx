import { REG_FIELDS, type PresetField } from '@contest/shared';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import { Button, Input, Select, Space, Switch, Table, Tooltip } from 'antd';

interface RegFieldDesignerProps {
  value?: PresetField[];
  onChange?: (fields: PresetField[]) => void;
  disabled?: boolean;
}

const LABEL_OF = Object.fromEntries(REG_FIELDS.map((f) => [f.name, f.label])) as Record<string, string>;

/** A complete field list (every label filled in, within its length) or the message saying what is wrong. */
export function checkRegFields(fields: PresetField[] | undefined): string | null {
  for (const f of fields ?? []) {
    const label = f.label?.trim() ?? '';
    if (!label) return `请填写“${LABEL_OF[f.name]}”的显示名称`;
    if (label.length > 20) return `“${label}”的显示名称不能超过20个字符`;
    if ((f.description ?? '').length > 200) return `“${label}”的填写说明不能超过200个字符`;
  }
  return null;
}

/**
 * The registration form's designer (REG_SET): which of the fields of spec §3 participants fill in,
 * under what label, whether required, with what hint, and in which order.
 */
export function RegFieldDesigner({ value = [], onChange, disabled }: RegFieldDesignerProps) {
  const update = (index: number, patch: Partial<PresetField>) => onChange?.(value.map((f, i) => (i === index ? { ...f, ...patch } : f)));
  const move = (index: number, to: number) => {
    const next = [...value];
    const [item] = next.splice(index, 1);
    next.splice(to, 0, item!);
    onChange?.(next);
  };
  const unused = REG_FIELDS.filter((f) => !value.some((v) => v.name === f.name));

  return (
    <div>
      <Table<PresetField>
        rowKey="name"
        size="small"
        pagination={false}
        dataSource={value}
        // On a narrow screen the table scrolls sideways rather than squeezing the inputs to a letter each.
        scroll={{ x: 720 }}
        locale={{ emptyText: '尚未选择报名字段' }}
        columns={[
          { title: '顺序', width: 60, render: (_, __, i) => i + 1 },
          { title: '报名字段', width: 110, render: (_, f) => LABEL_OF[f.name] },
          {
            title: '显示名称',
            width: 180,
            render: (_, f, i) => (
              <Input value={f.label} maxLength={20} status={f.label?.trim() ? undefined : 'error'} disabled={disabled} aria-label={`${LABEL_OF[f.name]}的显示名称`} onChange={(e) => update(i, { label: e.target.value })} />
            ),
          },
          {
            title: '必填',
            width: 80,
            render: (_, f, i) => (
              <Switch size="small" checked={f.otherParams?.required ?? false} disabled={disabled} aria-label={`${LABEL_OF[f.name]}必填`} onChange={(required) => update(i, { otherParams: { required } })} />
            ),
          },
          {
            title: '填写说明',
            render: (_, f, i) => (
              <Input value={f.description ?? ''} maxLength={200} placeholder="可不填" disabled={disabled} aria-label={`${LABEL_OF[f.name]}的填写说明`} onChange={(e) => update(i, { description: e.target.value || null })} />
            ),
          },
          ...(disabled
            ? []
            : [
                {
                  title: '操作',
                  key: 'actions',
                  width: 120,
                  render: (_: unknown, f: PresetField, i: number) => (
                    <Space size={0}>
                      <Tooltip title="上移">
                        <Button type="text" size="small" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => move(i, i - 1)} aria-label={`上移${LABEL_OF[f.name]}`} />
                      </Tooltip>
                      <Tooltip title="下移">
                        <Button type="text" size="small" icon={<ArrowDownOutlined />} disabled={i === value.length - 1} onClick={() => move(i, i + 1)} aria-label={`下移${LABEL_OF[f.name]}`} />
                      </Tooltip>
                      <Tooltip title="移除">
                        <Button type="text" size="small" danger icon={<DeleteOutlined />} onClick={() => onChange?.(value.filter((_, j) => j !== i))} aria-label={`移除${LABEL_OF[f.name]}`} />
                      </Tooltip>
                    </Space>
                  ),
                },
              ]),
        ]}
      />
      {!disabled && unused.length > 0 && (
        <Select<string>
          style={{ width: 220, marginTop: 8 }}
          placeholder="添加报名字段"
          value={null}
          options={unused.map((f) => ({ value: f.name, label: f.label }))}
          onChange={(name) => {
            const def = REG_FIELDS.find((f) => f.name === name)!;
            onChange?.([...value, { name: def.name, label: def.label, type: def.type, description: null, otherParams: { required: false } }]);
          }}
        />
      )}
    </div>
  );
}
