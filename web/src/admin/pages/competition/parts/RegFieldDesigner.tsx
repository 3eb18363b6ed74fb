import { CUSTOM_FIELD_TYPES, REG_FIELDS, duplicateLabelText, isCustomField, nextCustomName, type CustomFieldType, type PresetField } from '@contest/shared';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Checkbox, Input, Select, Space, Switch, Table, Tooltip } from 'antd';

interface RegFieldDesignerProps {
  value?: PresetField[];
  onChange?: (fields: PresetField[]) => void;
  disabled?: boolean;
}

const LABEL_OF = Object.fromEntries(REG_FIELDS.map((f) => [f.name, f.label])) as Record<string, string>;
/** What the designer calls a field: spec §3's name, or 自定义N for the organiser's own. */
const kindOf = (f: PresetField) => (isCustomField(f.name) ? `自定义${f.name.slice('custom'.length)}` : LABEL_OF[f.name]);

/** A complete field list (every label filled in, within its length, choices with options) or the message saying what is wrong. */
export function checkRegFields(fields: PresetField[] | undefined): string | null {
  const labels = new Set<string>();
  for (const f of fields ?? []) {
    const label = f.label?.trim() ?? '';
    if (!label) return `请填写“${kindOf(f)}”的显示名称`;
    if (label.length > 20) return `“${label}”的显示名称不能超过20个字符`;
    if (labels.has(label)) return duplicateLabelText(label);
    labels.add(label);
    if ((f.description ?? '').length > 200) return `“${label}”的填写说明不能超过200个字符`;
    if (f.type === 'choice' && isCustomField(f.name)) {
      const options = f.options ?? [];
      if (options.length < 2) return `“${label}”至少需要2个选项`;
      if (options.some((o) => o.length > 50)) return `“${label}”的选项不能超过50个字符`;
    }
  }
  return null;
}

/**
 * The registration form's designer (REG_SET): which of the fields of spec §3 participants fill in, and the
 * organiser's own fields (a text, a choice with its options, or a file), under what label, whether required, with
 * what hint, and in which order.
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
  const nextCustom = nextCustomName(value.map((f) => f.name));

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
          {
            title: '报名字段',
            width: 130,
            render: (_, f, i) =>
              isCustomField(f.name) ? (
                <Select<CustomFieldType>
                  size="small"
                  style={{ width: 110 }}
                  value={f.type as CustomFieldType}
                  disabled={disabled}
                  aria-label={`${kindOf(f)}的类型`}
                  options={CUSTOM_FIELD_TYPES.map((t) => ({ value: t.value, label: `自定义${t.label}` }))}
                  onChange={(type) => update(i, { type, options: type === 'choice' ? (f.options ?? []) : undefined })}
                />
              ) : (
                LABEL_OF[f.name]
              ),
          },
          {
            title: '显示名称',
            width: 180,
            render: (_, f, i) => (
              <Input
                value={f.label}
                maxLength={20}
                status={f.label?.trim() ? undefined : 'error'}
                disabled={disabled}
                aria-label={`${kindOf(f)}的显示名称`}
                onChange={(e) => update(i, { label: e.target.value })}
              />
            ),
          },
          {
            title: '必填',
            width: 80,
            render: (_, f, i) => (
              <Switch
                size="small"
                checked={f.otherParams?.required ?? false}
                disabled={disabled}
                aria-label={`${kindOf(f)}必填`}
                onChange={(required) => update(i, { otherParams: { ...f.otherParams, required } })}
              />
            ),
          },
          {
            title: '填写说明 / 选项',
            render: (_, f, i) => (
              <Space direction="vertical" style={{ width: '100%' }} size={4}>
                <Input
                  value={f.description ?? ''}
                  maxLength={200}
                  placeholder="可不填"
                  disabled={disabled}
                  aria-label={`${kindOf(f)}的填写说明`}
                  onChange={(e) => update(i, { description: e.target.value || null })}
                />
                {f.name === 'organization' && (
                  <Checkbox
                    checked={f.otherParams?.schoolList ?? false}
                    disabled={disabled}
                    onChange={(e) => update(i, { otherParams: { required: f.otherParams?.required ?? false, schoolList: e.target.checked || undefined } })}
                  >
                    只能从学校名单中选择（不允许填写名单外的学校）
                  </Checkbox>
                )}
                {isCustomField(f.name) && f.type === 'choice' && (
                  <Select<string[]>
                    mode="tags"
                    style={{ width: '100%' }}
                    value={f.options ?? []}
                    disabled={disabled}
                    status={(f.options?.length ?? 0) < 2 ? 'error' : undefined}
                    placeholder="输入选项后按回车，至少2个"
                    aria-label={`${f.label || kindOf(f)}的选项`}
                    open={false}
                    tokenSeparators={['，', ',']}
                    maxCount={20}
                    onChange={(options) => update(i, { options: [...new Set(options.map((o) => o.trim()).filter(Boolean))] })}
                  />
                )}
                {isCustomField(f.name) && f.type === 'file' && <span style={{ color: '#888' }}>参赛者上传一个 PDF、PNG 或 JPEG 文件，10MB 以内</span>}
              </Space>
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
                        <Button
                          type="text"
                          size="small"
                          icon={<ArrowUpOutlined />}
                          disabled={i === 0}
                          onClick={() => move(i, i - 1)}
                          aria-label={`上移${kindOf(f)}`}
                        />
                      </Tooltip>
                      <Tooltip title="下移">
                        <Button
                          type="text"
                          size="small"
                          icon={<ArrowDownOutlined />}
                          disabled={i === value.length - 1}
                          onClick={() => move(i, i + 1)}
                          aria-label={`下移${kindOf(f)}`}
                        />
                      </Tooltip>
                      <Tooltip title="移除">
                        <Button
                          type="text"
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          onClick={() => onChange?.(value.filter((_, j) => j !== i))}
                          aria-label={`移除${kindOf(f)}`}
                        />
                      </Tooltip>
                    </Space>
                  ),
                },
              ]),
        ]}
      />
      {!disabled && (
        <Space wrap style={{ marginTop: 8 }}>
          {unused.length > 0 && (
            <Select<string>
              style={{ width: 220 }}
              placeholder="添加报名字段"
              value={null}
              options={unused.map((f) => ({ value: f.name, label: f.label }))}
              onChange={(name) => {
                const def = REG_FIELDS.find((f) => f.name === name)!;
                onChange?.([...value, { name: def.name, label: def.label, type: def.type, description: null, otherParams: { required: false } }]);
              }}
            />
          )}
          <Tooltip title={nextCustom ? '文本、单选或文件，参赛者报名时填写' : '自定义字段最多20个'}>
            <Button
              icon={<PlusOutlined />}
              disabled={!nextCustom}
              onClick={() => onChange?.([...value, { name: nextCustom!, label: '', type: 'text', description: null, otherParams: { required: false } }])}
            >
              新增自定义字段
            </Button>
          </Tooltip>
        </Space>
      )}
    </div>
  );
}
