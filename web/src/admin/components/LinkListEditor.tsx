import { isValidUrl } from '@contest/shared';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Space, Tooltip } from 'antd';
import type { NamePath } from 'antd/es/form/interface';

const LINK_TYPES = [
  { value: 0, label: '当前窗口' },
  { value: 1, label: '新窗口' },
];

const urlRule = {
  validator: async (_: unknown, value: unknown) => {
    const v = typeof value === 'string' ? value.trim() : '';
    if (v && !v.startsWith('/') && !isValidUrl(v)) throw new Error('链接须为站内路径（以/开头）或http(s)地址');
  },
};

interface LinkListEditorProps {
  /** The list's name inside the form (relative to the enclosing list for sub-links). */
  name: NamePath;
  max: number;
  addText: string;
  disabled?: boolean;
  /** Each link may carry a list of sub-links (the navigation's drop-down menus). */
  withChildren?: boolean;
  childMax?: number;
}

/** Edits a list of links `{name, url, type}` (brand navigation, sub links, friendly links), in order. */
export function LinkListEditor({ name, max, addText, disabled, withChildren, childMax = 20 }: LinkListEditorProps) {
  return (
    <Form.List name={name}>
      {(fields, { add, remove, move }) => (
        <div className="admin-link-list">
          {fields.map((field, index) => (
            <div key={field.key} className="admin-link-item">
              <Space align="start" wrap>
                <Form.Item
                  name={[field.name, 'name']}
                  rules={[
                    { required: true, whitespace: true, message: '请输入链接名称' },
                    { max: 30, message: '链接名称不能超过30个字符' },
                  ]}
                >
                  <Input placeholder="链接名称" style={{ width: 160 }} disabled={disabled} />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'url']}
                  rules={[{ required: true, whitespace: true, message: '请输入链接地址' }, { max: 500, message: '链接地址过长' }, urlRule]}
                >
                  <Input placeholder="/competitionList 或 https://..." style={{ width: 320 }} disabled={disabled} />
                </Form.Item>
                <Form.Item name={[field.name, 'type']} initialValue={0}>
                  <Select options={LINK_TYPES} style={{ width: 110 }} disabled={disabled} aria-label="打开方式" />
                </Form.Item>
                {!disabled && (
                  <Space size={0}>
                    <Tooltip title="上移">
                      <Button type="text" icon={<ArrowUpOutlined />} disabled={index === 0} onClick={() => move(index, index - 1)} aria-label="上移" />
                    </Tooltip>
                    <Tooltip title="下移">
                      <Button
                        type="text"
                        icon={<ArrowDownOutlined />}
                        disabled={index === fields.length - 1}
                        onClick={() => move(index, index + 1)}
                        aria-label="下移"
                      />
                    </Tooltip>
                    <Tooltip title="删除">
                      <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(index)} aria-label="删除" />
                    </Tooltip>
                  </Space>
                )}
              </Space>
              {withChildren && (
                <div className="admin-link-children">
                  <LinkListEditor name={[field.name, 'children']} max={childMax} addText="添加下拉链接" disabled={disabled} />
                </div>
              )}
            </div>
          ))}
          {!disabled && (
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              disabled={fields.length >= max}
              onClick={() => add({ name: '', url: '', type: 0, ...(withChildren ? { children: [] } : {}) })}
            >
              {addText}
              {fields.length >= max && `（最多${max}个）`}
            </Button>
          )}
          {disabled && fields.length === 0 && <span className="admin-hint">暂无链接</span>}
        </div>
      )}
    </Form.List>
  );
}
