import { Form, Input } from 'antd';
import type { ReactNode } from 'react';
import { FormModal } from '../../common/FormModal.tsx';

/**
 * Asks why something is refused or cancelled: the reason is required, and shown to the one it concerns. By default a
 * rejection (驳回); `action` names another (取消成绩).
 */
export function ReasonModal({
  title,
  onSubmit,
  onClose,
  action = '驳回',
  placeholder = '将告知申请人，请写明需要修改的地方',
  max = 500,
}: {
  title: ReactNode;
  onSubmit: (reason: string) => Promise<unknown>;
  onClose: () => void;
  action?: string;
  placeholder?: string;
  max?: number;
}) {
  const label = `${action}原因`;
  return (
    <FormModal<{ reason: string }> title={title} okText={action} onSave={({ reason }) => onSubmit(reason.trim())} onClose={onClose}>
      <Form.Item
        name="reason"
        label={label}
        rules={[
          { required: true, whitespace: true, message: `请填写${label}` },
          { max, message: `${label}不能超过${max}个字符` },
        ]}
      >
        <Input.TextArea rows={4} showCount maxLength={max} placeholder={placeholder} />
      </Form.Item>
    </FormModal>
  );
}
