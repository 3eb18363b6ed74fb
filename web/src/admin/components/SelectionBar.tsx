import { Alert, Space } from 'antd';
import type { ReactNode } from 'react';
import { ActionLink } from '#src/common/ActionLink.tsx';

/**
 * What a list offers for its selected rows, shown above the table while rows are selected: how many, the batch
 * actions, and a way to clear the selection. The selection is kept across pages and filters.
 */
export function SelectionBar({ count, onClear, children }: { count: number; onClear: () => void; children: ReactNode }) {
  if (!count) return null;
  return (
    <Alert
      style={{ marginBottom: 16 }}
      type="info"
      message={
        <Space wrap>
          <span>已选择 {count} 条</span>
          {children}
          <ActionLink onClick={onClear}>取消选择</ActionLink>
        </Space>
      }
    />
  );
}
