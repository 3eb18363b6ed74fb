import { ACTION_CODES, type CompetitionType, type Page, type TypeBody } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Space, Table } from 'antd';
import { useState } from 'react';
import { usePermissions } from '../../../common/auth.ts';
import { http } from '../../../common/http.ts';
import { pager } from '../../../common/pager.ts';
import { FormModal } from '../../../common/FormModal.tsx';
import { TYPE_OPTIONS_KEY } from '../../components/options.ts';
import { SortItem } from '../../components/SortItem.tsx';
import { useConfirm } from '../../components/useConfirm.ts';

type Editing = { type: CompetitionType | null } | null;

/** Competition types (数据分析, 算法, ...): the platform's list that organisers choose from. */
export default function TypePage() {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const client = useQueryClient();
  const canEdit = usePermissions().has(ACTION_CODES.typeEdit);
  const [query, setQuery] = useState({ page: 1, limit: 20 });
  const [editing, setEditing] = useState<Editing>(null);

  const types = useQuery({
    queryKey: ['types', query],
    queryFn: () => http.get<Page<CompetitionType>>('/api/competition/type/public/page', query),
  });
  const reload = () => Promise.all([client.invalidateQueries({ queryKey: ['types'] }), client.invalidateQueries({ queryKey: TYPE_OPTIONS_KEY })]);

  async function save(values: TypeBody) {
    if (editing?.type) await http.put(`/api/competition/type/${editing.type.id}`, values);
    // Spec §7: creating a type takes its fields in the query string.
    else await http.post('/api/competition/type/', undefined, { params: { name: values.name, sort: values.sort } });
    void message.success('竞赛类型已保存');
    await reload();
  }

  const remove = (type: CompetitionType) =>
    confirm(
      `确定删除竞赛类型“${type.name}”吗？`,
      async () => {
        await http.delete(`/api/competition/type/${type.id}`);
        void message.success('竞赛类型已删除');
        await reload();
      },
      { danger: true },
    );

  return (
    <Card title="竞赛类型" extra={canEdit && <Button type="primary" onClick={() => setEditing({ type: null })}>新建类型</Button>}>
      <Table<CompetitionType>
        rowKey="id"
        loading={types.isLoading}
        dataSource={types.data?.list}
        locale={{ emptyText: '暂无竞赛类型' }}
        pagination={pager(types.data, (page, limit) => setQuery({ page, limit }))}
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
          onSave={save}
          onClose={() => setEditing(null)}
        >
          <Form.Item name="name" label="类型名称" rules={[{ required: true, whitespace: true, message: '请输入类型名称' }, { max: 50, message: '类型名称不能超过50个字符' }]}>
            <Input />
          </Form.Item>
          <SortItem />
        </FormModal>
      )}
    </Card>
  );
}

