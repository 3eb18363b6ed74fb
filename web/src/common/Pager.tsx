import { Pagination, type PaginationProps } from 'antd';

/**
 * antd's Pagination on its own, for lazy loading where it sits under content that should show first: its page-size
 * changer brings Select and a virtual list along.
 */
export default function Pager(props: PaginationProps) {
  return <Pagination {...props} />;
}
