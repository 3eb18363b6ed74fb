import { ACTION_CODES, type CompetitionType, type PageQuery, type TypeBody } from '@contest/shared';
import { App, Button, Card, Form, Input, Space, Table } from 'antd';
import { useState } from 'react';
import { usePermissions } from '#src/common/auth.ts';
import { typeApi, typeKeys } from '#src/api/catalogue.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { TYPE_OPTIONS_KEY } from '../../components/options.ts';
import { SortItem } from '../../components/SortItem.tsx';
import { useConfirm } from '../../components/useConfirm.ts';
import { useListMutation, useListState, usePagedList } from '#src/common/usePagedList.ts';

type Editing = { type: CompetitionType | null } | null;

/** Competition types (数据分析, 算法, ...): the platform's list that organisers choose from. */
export default function TypePage() {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const canEdit = usePermissions().has(ACTION_CODES.typeEdit);
  const list = usePagedList(useListState<PageQuery>(), { queryKey: typeKeys.list, queryFn: typeApi.list, emptyText: '暂无竞赛类型' });
  const [editing, setEditing] = useState<Editing>(null);
  const lists = [typeKeys.all, TYPE_OPTIONS_KEY];

  const save = useListMutation(
    (values: TypeBody) => (editing?.type ? typeApi.update(editing.type.id, values) : typeApi.create(values)),
    lists,
    () => void message.success('竞赛类型已保存'),
  );
  const removal = useListMutation(typeApi.remove, lists, () => void message.success('竞赛类型已删除'));

  const remove = (type: CompetitionType) => confirm(`确定删除竞赛类型“${type.name}”吗？`, () => removal.mutateAsync(type.id), { danger: true });

  return (
    <Card
      title="竞赛类型"
      extra={
        canEdit && (
          <Button type="primary" onClick={() => setEditing({ type: null })}>
            新建类型
          </Button>
        )
      }
    >
      <Table<CompetitionType>
        {...list.table}
        columns={[
          { title: '类型名称', dataIndex: 'name' },
          { title: '排序', dataIndex: 'sort', width: 120 },
          ...(canEdit
            ? [
                {
                  title: '操作',
                  key: 'actions',
                  width: 140,
                  render: (_: unknown, t: CompetitionType) => (
                    <Space size={0}>
                      <Button type="link" size="small" onClick={() => setEditing({ type: t })}>
                        编辑
                      </Button>
                      <Button type="link" size="small" danger onClick={() => remove(t)}>
                        删除
                      </Button>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && (
        <FormModal<TypeBody>
          title={editing.type ? `编辑类型：${editing.type.name}` : '新建类型'}
          initialValues={editing.type ?? { sort: 0 }}
          onSave={save.mutateAsync}
          onClose={() => setEditing(null)}
        >
          <Form.Item
            name="name"
            label="类型名称"
            rules={[
              { required: true, whitespace: true, message: '请输入类型名称' },
              { max: 50, message: '类型名称不能超过50个字符' },
            ]}
          >
            <Input />
          </Form.Item>
          <SortItem />
        </FormModal>
      )}
    </Card>
  );
}
