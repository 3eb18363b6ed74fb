import type { ManageListQuery } from '@contest/shared';
import { Button, Form, Input, Select } from 'antd';
import { useBrandOptions, useTypeOptions } from '#src/admin/components/options.ts';
import { AUDIT_STATUS_OPTIONS } from './AuditStatusTag.tsx';

export type CompetitionFilter = Pick<ManageListQuery, 'keyword' | 'brandId' | 'typeId' | 'auditStatus'>;

/** Keyword, brand, type and audit status: the filters of both competition lists. */
export function CompetitionFilters({ initial, onSearch }: { initial?: CompetitionFilter; onSearch: (filter: CompetitionFilter) => void }) {
  const brands = useBrandOptions();
  const types = useTypeOptions();
  return (
    <Form<CompetitionFilter>
      layout="inline"
      style={{ marginBottom: 16, rowGap: 8 }}
      initialValues={initial}
      onFinish={(v) => onSearch({ ...v, keyword: v.keyword?.trim() || undefined })}
    >
      <Form.Item name="keyword">
        <Input placeholder="竞赛名称" allowClear style={{ width: 200 }} />
      </Form.Item>
      <Form.Item name="brandId">
        <Select placeholder="品牌" allowClear showSearch optionFilterProp="label" style={{ width: 180 }} options={brands.data} loading={brands.isLoading} />
      </Form.Item>
      <Form.Item name="typeId">
        <Select placeholder="类型" allowClear style={{ width: 140 }} options={types.data} loading={types.isLoading} />
      </Form.Item>
      <Form.Item name="auditStatus">
        <Select placeholder="审核状态" allowClear style={{ width: 120 }} options={AUDIT_STATUS_OPTIONS} />
      </Form.Item>
      <Button type="primary" htmlType="submit">
        查询
      </Button>
    </Form>
  );
}
