import type { Brand } from '@contest/shared';
import { App, Button, Card, Form, Input, Select, Switch, Table } from 'antd';
import { useState } from 'react';
import { HttpError } from '#src/common/http.ts';
import { brandApi, brandKeys, type BrandListParams } from '#src/api/catalogue.ts';
import { BrandLogo } from '../../components/BrandLogo.tsx';
import { useListMutation, useListState, usePagedList } from '#src/common/usePagedList.ts';

/** Which brands the site's list shows first as recommended (spec §7: brands listed six at a time, recommended). */
export default function BrandRecommendPage() {
  const { message } = App.useApp();
  // The public list: this page's code does not include the back-office brand list's.
  const list = usePagedList(useListState<BrandListParams>(), { queryKey: brandKeys.recommend, queryFn: brandApi.publicPage, emptyText: '暂无品牌' });
  const [switching, setSwitching] = useState<number | null>(null);
  const recommend = useListMutation(
    ({ brand, on }: { brand: Brand; on: boolean }) => brandApi.setRecommend(brand.id, on),
    [brandKeys.recommendAll, brandKeys.all],
    (_, { brand, on }) => void message.success(on ? `已将“${brand.name}”设为推荐品牌` : `已取消推荐“${brand.name}”`),
  );

  async function toggle(brand: Brand, on: boolean) {
    setSwitching(brand.id);
    try {
      await recommend.mutateAsync({ brand, on });
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
        onFinish={(v) => list.refine({ keyword: v.keyword?.trim() || undefined, recommend: v.recommend })}
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
        {...list.table}
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
              <Switch
                checked={b.recommend}
                loading={switching === b.id}
                checkedChildren="推荐"
                unCheckedChildren="不推荐"
                onChange={(on) => void toggle(b, on)}
                aria-label={`推荐${b.name}`}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
