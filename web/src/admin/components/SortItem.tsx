import { Form, InputNumber } from 'antd';

/** The sort field of types and brands: smaller numbers come first. */
export function SortItem() {
  return (
    <Form.Item name="sort" label="排序" extra="数字越小越靠前" rules={[{ required: true, message: '请输入排序' }]}>
      <InputNumber min={0} max={9999} precision={0} style={{ width: 160 }} />
    </Form.Item>
  );
}
