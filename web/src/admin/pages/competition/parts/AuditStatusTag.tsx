import { AUDIT_STATUS, AUDIT_STATUS_TEXT } from '@contest/shared';
import { Tag } from 'antd';
import { textOptions } from '#src/common/forms.ts';

const AUDIT_COLORS: Record<number, string> = {
  [AUDIT_STATUS.draft]: 'default',
  [AUDIT_STATUS.pending]: 'processing',
  [AUDIT_STATUS.rejected]: 'error',
  [AUDIT_STATUS.online]: 'success',
  [AUDIT_STATUS.offline]: 'warning',
};

export function AuditStatusTag({ status }: { status: number }) {
  return <Tag color={AUDIT_COLORS[status]}>{AUDIT_STATUS_TEXT[status]}</Tag>;
}

export const AUDIT_STATUS_OPTIONS = textOptions(AUDIT_STATUS_TEXT);
