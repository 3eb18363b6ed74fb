import { Button, Form, Modal } from 'antd';
import { useState, type ReactNode } from 'react';
import { showFieldErrors } from './forms.ts';

interface FormModalProps<V> {
  title: ReactNode;
  initialValues?: Partial<V>;
  /** Sends the values; a rejected promise keeps the dialog open with the server's field errors shown. */
  onSave: (values: V) => Promise<unknown>;
  onClose: () => void;
  width?: number;
  okText?: string;
  /** Prefix of the fields' ids, which must not repeat those of a form on the page behind the dialog. */
  name?: string;
  /** Shows the values without letting them change: the form is disabled and the only button closes. */
  readOnly?: boolean;
  children: ReactNode;
}

/**
 * A create/edit dialog around a vertical form. Render it only while it is open: each opening then
 * starts from a fresh form with `initialValues`, with nothing left over from the last record.
 */
export function FormModal<V>({ title, initialValues, onSave, onClose, width, okText = '保存', name = 'dialog', readOnly, children }: FormModalProps<V>) {
  const [form] = Form.useForm<V>();
  const [saving, setSaving] = useState(false);

  async function submit() {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is missing next to the fields
    }
    setSaving(true);
    try {
      await onSave(values);
      onClose();
    } catch (err) {
      showFieldErrors(form, err);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open
      title={title}
      width={width}
      okText={okText}
      cancelText="取消"
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      maskClosable={Boolean(readOnly)}
      footer={readOnly ? <Button onClick={onClose}>关闭</Button> : undefined}
    >
      <Form form={form} name={name} layout="vertical" initialValues={initialValues as never} onFinish={submit} disabled={readOnly}>
        {children}
      </Form>
    </Modal>
  );
}
