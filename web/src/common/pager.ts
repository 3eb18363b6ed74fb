import { PAGE_SIZES, type Page } from '@contest/shared';
import type { TablePaginationConfig } from 'antd';

/** The spec's pager (§9): sizes 10/20/30/50, default 20, layout total, sizes, prev, pager, next, jumper. */
export function pager(data: Page<unknown> | undefined, onChange: (page: number, limit: number) => void): TablePaginationConfig {
  return {
    current: data?.page ?? 1,
    pageSize: data?.limit ?? 20,
    total: data?.total ?? 0,
    pageSizeOptions: PAGE_SIZES.map(String),
    showSizeChanger: true,
    showQuickJumper: true,
    showTotal: (total) => `共 ${total} 条`,
    onChange,
  };
}
