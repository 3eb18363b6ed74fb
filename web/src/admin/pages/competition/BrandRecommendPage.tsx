import type { Brand, BrandListQuery, Page } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Select, Switch, Table } from 'antd';
import { useState } from 'react';
import { HttpError, http } from '../../../common/http.ts';
import { pager } from '../../../common/pager.ts';
import { BrandLogo } from '../../components/BrandLogo.tsx';

type Query = Omit<BrandListQuery, 'recommend'> & { recommend?: '0' | '1' };

/** Which brands the site's list shows first as recommended (spec §7: brands listed six at a time, recommended). */
export default function BrandRecommendPage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const [query, setQuery] = useState<Query>({ page: 1, limit: 20 });
  const [switching, setSwitching] = useState<number | null>(null);

  // The public list: this page's code does not include the back-office brand list's.
  const brands = useQuery({ queryKey: ['recommendBrands', query], queryFn: () => http.get<Page<Brand>>('/api/competition/brand/public/page', { ...query }) });

  async function toggle(brand: Brand, recommend: boolean) {
    setSwitching(brand.id);
    try {
      await http.put(`/api/competition/brand/recommend/${brand.id}`, undefined, { params: { recommend: recommend ? 1 : 0 } });
      void message.success(recommend ? `已将“${brand.name}”设为推荐品牌` : `已取消推荐“${brand.name}”`);
      await Promise.all([client.invalidateQueries({ queryKey: ['recommendBrands'] }), client.invalidateQueries({ queryKey: ['brands'] })]);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err; // the http client has shown it; the switch stays as it was
    } finally {
      setSwitching(null);
    }
  }

  return (
    <Card title="推荐品牌">
      <Form
        layout="inline"
        style={{ marginBottom: 16, rowGap: 8 }}
        onFinish={(v) => setQuery({ ...query, page: 1, keyword: v.keyword?.trim() || undefined, recommend: v.recommend })}
      >
        <Form.Item name="keyword">
          <Input placeholder="品牌名称或简称" allowClear style={{ width: 240 }} />
        </Form.Item>
        <Form.Item name="recommend">
          <Select
            placeholder="推荐状态"
            allowClear
            style={{ width: 130 }}
            options={[
              { value: '1', label: '已推荐' },
              { value: '0', label: '未推荐' },
            ]}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          查询
        </Button>
      </Form>
      <Table<Brand>
        rowKey="id"
        loading={brands.isLoading}
        dataSource={brands.data?.list}
        locale={{ emptyText: '暂无品牌' }}
        pagination={pager(brands.data, (page, limit) => setQuery({ ...query, page, limit }))}
        columns={[
          {
            title: '标志',
            width: 100,
            render: (_, b) => <BrandLogo logo={b.logo} name={b.shortName} />,
          },
          { title: '品牌名称', dataIndex: 'name' },
          { title: '简称', dataIndex: 'shortName', width: 140 },
          { title: '排序', dataIndex: 'sort', width: 80 },
          { title: '竞赛数', dataIndex: 'competitionNum', width: 90 },
          {
            title: '推荐',
            width: 120,
            render: (_, b) => (
              <Switch checked={b.recommend} loading={switching === b.id} checkedChildren="推荐" unCheckedChildren="不推荐" onChange={(on) => void toggle(b, on)} aria-label={`推荐${b.name}`} />
            ),
          },
        ]}
      />
    </Card>
  );
}
