import { Form, Input } from 'antd';
import type { ReactNode } from 'react';
import { FormModal } from '../../common/FormModal.tsx';

/** Asks why something is rejected: the reason is required, and shown to the one who asked. */
export function ReasonModal({ title, onSubmit, onClose }: { title: ReactNode; onSubmit: (reason: string) => Promise<unknown>; onClose: () => void }) {
  return (
    <FormModal<{ reason: string }> title={title} okText="驳回" onSave={({ reason }) => onSubmit(reason.trim())} onClose={onClose}>
      <Form.Item
        name="reason"
        label="驳回原因"
        rules={[
          { required: true, whitespace: true, message: '请填写驳回原因' },
          { max: 500, message: '驳回原因不能超过500个字符' },
        ]}
      >
        <Input.TextArea rows={4} showCount maxLength={500} placeholder="将告知申请人，请写明需要修改的地方" />
      </Form.Item>
    </FormModal>
  );
}
