import { ACTION_CODES, type Brand, type BrandBody } from '@contest/shared';
import { App, Button, Card, Form, Input, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { usePermissions } from '#src/common/auth.ts';
import { brandApi, brandKeys, type KeywordParams } from '#src/api/catalogue.ts';
import { BrandLogo } from '../../components/BrandLogo.tsx';
import { FormModal } from '#src/common/FormModal.tsx';
import { ImageUpload } from '../../components/ImageUpload.tsx';
import { BRAND_OPTIONS_KEY } from '../../components/options.ts';
import { SortItem } from '../../components/SortItem.tsx';
import { useConfirm } from '../../components/useConfirm.ts';
import { useListMutation, useListState, usePagedList } from '#src/common/usePagedList.ts';

type Editing = { brand: Brand | null } | null;

/** Brands group competitions on the site; each may have its own navigation. */
export default function BrandPage() {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const canEdit = usePermissions().has(ACTION_CODES.brandEdit);
  const list = usePagedList(useListState<KeywordParams>(), { queryKey: brandKeys.list, queryFn: brandApi.list, emptyText: '暂无品牌' });
  const [editing, setEditing] = useState<Editing>(null);
  const lists = [brandKeys.all, BRAND_OPTIONS_KEY];

  const save = useListMutation(
    (values: BrandBody) => {
      const body = { ...values, logo: values.logo ?? null };
      return editing?.brand ? brandApi.update(editing.brand.id, body) : brandApi.create(body);
    },
    lists,
    () => void message.success('品牌已保存'),
  );
  const removal = useListMutation(brandApi.remove, lists, () => void message.success('品牌已删除'));

  const remove = (brand: Brand) => confirm(`确定删除品牌“${brand.name}”吗？品牌导航将一并删除。`, () => removal.mutateAsync(brand.id), { danger: true });

  return (
    <Card
      title="竞赛品牌"
      extra={
        canEdit && (
          <Button type="primary" onClick={() => setEditing({ brand: null })}>
            新建品牌
          </Button>
        )
      }
    >
      <Form layout="inline" style={{ marginBottom: 16 }} onFinish={(v) => list.refine({ keyword: v.keyword?.trim() || undefined })}>
        <Form.Item name="keyword">
          <Input placeholder="品牌名称或简称" allowClear style={{ width: 240 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          查询
        </Button>
      </Form>
      <Table<Brand>
        {...list.table}
        scroll={{ x: 1000 }}
        columns={[
          {
            title: '标志',
            width: 100,
            render: (_, b) => <BrandLogo logo={b.logo} name={b.shortName} />,
          },
          { title: '品牌名称', dataIndex: 'name' },
          { title: '简称', dataIndex: 'shortName', width: 120 },
          { title: '排序', dataIndex: 'sort', width: 70 },
          { title: '推荐', width: 80, render: (_, b) => (b.recommend ? <Tag color="gold">推荐</Tag> : '') },
          { title: '竞赛数', dataIndex: 'competitionNum', width: 80 },
          {
            title: '品牌介绍',
            dataIndex: 'description',
            render: (text: string | null) => (
              <Typography.Paragraph ellipsis={{ rows: 2, tooltip: text }} style={{ margin: 0 }}>
                {text}
              </Typography.Paragraph>
            ),
          },
          {
            title: '操作',
            key: 'actions',
            fixed: 'right',
            width: canEdit ? 200 : 100,
            render: (_, b) => (
              <Space size={0}>
                {canEdit && (
                  <Button type="link" size="small" onClick={() => setEditing({ brand: b })}>
                    编辑
                  </Button>
                )}
                <Link to={`/competition/brand/nav/${b.id}`} className="ant-btn ant-btn-link ant-btn-sm">
                  品牌导航
                </Link>
                {canEdit && (
                  <Button type="link" size="small" danger onClick={() => remove(b)}>
                    删除
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <FormModal<BrandBody>
          title={editing.brand ? `编辑品牌：${editing.brand.name}` : '新建品牌'}
          initialValues={editing.brand ?? { sort: 0, logo: null }}
          onSave={save.mutateAsync}
          onClose={() => setEditing(null)}
          width={600}
        >
          <Form.Item
            name="name"
            label="品牌名称"
            rules={[
              { required: true, whitespace: true, message: '请输入品牌名称' },
              { max: 100, message: '品牌名称不能超过100个字符' },
            ]}
          >
            <Input />
          </Form.Item>
          <Form.Item
            name="shortName"
            label="品牌简称"
            extra="显示在竞赛列表的品牌分组上"
            rules={[
              { required: true, whitespace: true, message: '请输入品牌简称' },
              { max: 20, message: '品牌简称不能超过20个字符' },
            ]}
          >
            <Input />
          </Form.Item>
          <Form.Item name="logo" label="品牌标志">
            <ImageUpload purpose="logo" />
          </Form.Item>
          <SortItem />
          <Form.Item name="description" label="品牌介绍" rules={[{ max: 500, message: '品牌介绍不能超过500个字符' }]}>
            <Input.TextArea rows={4} showCount maxLength={500} />
          </Form.Item>
        </FormModal>
      )}
    </Card>
  );
}
