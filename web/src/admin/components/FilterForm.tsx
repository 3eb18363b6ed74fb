import { ADMIN_MENU_CODES } from '@contest/shared';
import { Button, Form, Input, Select } from 'antd';
import type { ReactNode } from 'react';
import { usePermissions } from '../../common/auth.ts';
import { useCompetitionOptions } from './options.ts';

export interface Filters {
  competitionId?: number;
  keyword?: string;
  [field: string]: unknown;
}

/**
 * The filter bar of the back-office lists scoped by competition: the competition (for those who manage
 * competitions), the list's own fields, a keyword and the search button. Submits with the keyword trimmed.
 */
export function FilterForm<F extends Filters>({
  initialValues,
  keywordPlaceholder,
  onSearch,
  withCompetition = true,
  children,
}: {
  initialValues?: Partial<F>;
  keywordPlaceholder: string;
  onSearch: (filters: F) => void;
  /** False for lists already inside one competition (a question's pages). */
  withCompetition?: boolean;
  children?: ReactNode;
}) {
  const canList = usePermissions().has(ADMIN_MENU_CODES.competition);
  const competitions = useCompetitionOptions(withCompetition && canList);
  return (
    <Form
      layout="inline"
      style={{ marginBottom: 16 }}
      initialValues={initialValues}
      onFinish={(v: F) => onSearch({ ...v, keyword: v.keyword?.trim() || undefined })}
    >
      {withCompetition && competitions.data && (
        <Form.Item name="competitionId" label="竞赛">
          <Select allowClear placeholder="全部竞赛" style={{ width: 220 }} options={competitions.data} showSearch optionFilterProp="label" />
        </Form.Item>
      )}
      {children}
      <Form.Item name="keyword">
        <Input allowClear placeholder={keywordPlaceholder} style={{ width: 220 }} />
      </Form.Item>
      <Button type="primary" htmlType="submit">
        查询
      </Button>
    </Form>
  );
}
