import { ACTION_CODES, EMAIL_MESSAGE, ORG_KINDS, isValidEmail, type Organisation, type OrganisationBody } from '@contest/shared';
import { App, Button, Card, Form, Input, Radio, Space, Table } from 'antd';
import { useState } from 'react';
import { usePermissions } from '#src/common/auth.ts';
import { ruleFrom } from '#src/common/forms.ts';
import { organisationApi, organisationKeys } from '#src/api/orgs.ts';
import type { KeywordParams } from '#src/api/catalogue.ts';
import { formatDay } from '#src/common/time.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { ORG_OPTIONS_KEY } from '../../components/options.ts';
import { useConfirm } from '../../components/useConfirm.ts';
import { useListMutation, useListState, usePagedList } from '#src/common/usePagedList.ts';

type Editing = { org: Organisation | null } | null;

/** Schools and companies that run competitions; organisers belong to one. */
export default function OrganizationPage() {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const canEdit = usePermissions().has(ACTION_CODES.organizationEdit);
  const list = usePagedList(useListState<KeywordParams>(), { queryKey: organisationKeys.list, queryFn: organisationApi.list, emptyText: '暂无组织机构' });
  const [editing, setEditing] = useState<Editing>(null);
  const lists = [organisationKeys.all, ORG_OPTIONS_KEY];

  const save = useListMutation(
    (values: OrganisationBody) => (editing?.org ? organisationApi.update(editing.org.id, values) : organisationApi.create(values)),
    lists,
    () => void message.success('机构已保存'),
  );
  const removal = useListMutation(organisationApi.remove, lists, () => void message.success('机构已删除'));

  const remove = (org: Organisation) => confirm(`确定删除机构“${org.name}”吗？`, () => removal.mutateAsync(org.id), { danger: true });

  return (
    <Card
      title="组织机构管理"
      extra={
        canEdit && (
          <Button type="primary" onClick={() => setEditing({ org: null })}>
            新建机构
          </Button>
        )
      }
    >
      <Form layout="inline" style={{ marginBottom: 16 }} onFinish={(v) => list.refine({ keyword: v.keyword?.trim() || undefined })}>
        <Form.Item name="keyword">
          <Input placeholder="机构名称" allowClear style={{ width: 240 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          查询
        </Button>
      </Form>
      <Table<Organisation>
        {...list.table}
        scroll={{ x: 1000 }}
        columns={[
          { title: '机构名称', dataIndex: 'name' },
          { title: '类型', width: 80, render: (_, o) => ORG_KINDS[o.kind] },
          { title: '联系人', dataIndex: 'contactName', width: 100 },
          { title: '联系电话', dataIndex: 'contactPhone', width: 130 },
          { title: '联系邮箱', dataIndex: 'contactEmail', width: 180 },
          { title: '成员数', dataIndex: 'memberNum', width: 80 },
          { title: '竞赛数', dataIndex: 'competitionNum', width: 80 },
          { title: '创建时间', width: 110, render: (_, o) => formatDay(o.createdAt) },
          ...(canEdit
            ? [
                {
                  title: '操作',
                  key: 'actions',
                  fixed: 'right' as const,
                  width: 120,
                  render: (_: unknown, o: Organisation) => (
                    <Space size={0}>
                      <Button type="link" size="small" onClick={() => setEditing({ org: o })}>
                        编辑
                      </Button>
                      <Button type="link" size="small" danger onClick={() => remove(o)}>
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
        <FormModal<OrganisationBody>
          title={editing.org ? `编辑机构：${editing.org.name}` : '新建机构'}
          initialValues={editing.org ?? { kind: 'school' }}
          onSave={save.mutateAsync}
          onClose={() => setEditing(null)}
        >
          <Form.Item
            name="name"
            label="机构名称"
            rules={[
              { required: true, whitespace: true, message: '请输入机构名称' },
              { max: 200, message: '机构名称不能超过200个字符' },
            ]}
          >
            <Input />
          </Form.Item>
          <Form.Item name="kind" label="机构类型" rules={[{ required: true, message: '请选择机构类型' }]}>
            <Radio.Group options={Object.entries(ORG_KINDS).map(([value, label]) => ({ value, label }))} />
          </Form.Item>
          <Form.Item name="contactName" label="联系人" rules={[{ max: 50, message: '联系人不能超过50个字符' }]}>
            <Input />
          </Form.Item>
          <Form.Item name="contactPhone" label="联系电话" rules={[{ max: 30, message: '联系电话不能超过30个字符' }]} extra="手机或座机均可">
            <Input />
          </Form.Item>
          <Form.Item name="contactEmail" label="联系邮箱" rules={[ruleFrom((v) => (isValidEmail(v) ? null : EMAIL_MESSAGE))]}>
            <Input />
          </Form.Item>
        </FormModal>
      )}
    </Card>
  );
}
