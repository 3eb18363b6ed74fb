import { ACTION_CODES, PERMISSION_CATALOGUE, type Role, type RoleBody } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Divider, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { usePermissions } from '#src/common/auth.ts';
import { showFieldErrors } from '#src/common/forms.ts';
import { roleApi, roleKeys } from '#src/api/roles.ts';
import { useListMutation } from '#src/common/usePagedList.ts';

type Editing = { role: Role | null } | null;

export default function RolePage() {
  const { message, modal } = App.useApp();
  const { has } = usePermissions();
  const canEdit = has(ACTION_CODES.roleEdit);
  const [editing, setEditing] = useState<Editing>(null);
  const [form] = Form.useForm<RoleBody>();
  const roles = useQuery({ queryKey: roleKeys.all, queryFn: roleApi.list });
  const saving = useListMutation(
    (values: RoleBody) => {
      if (!editing?.role) return roleApi.create(values);
      const { code: _code, ...rest } = values;
      return roleApi.update(editing.role.id, rest);
    },
    [roleKeys.all],
    () => {
      void message.success('角色已保存');
      setEditing(null);
    },
  );
  const removal = useListMutation(roleApi.remove, [roleKeys.all], () => void message.success('角色已删除'));

  function open(role: Role | null) {
    form.resetFields();
    form.setFieldsValue(role ? { code: role.code, name: role.name, description: role.description, permissions: role.permissions } : { permissions: [] });
    setEditing({ role });
  }

  async function save() {
    const values = await form.validateFields();
    try {
      await saving.mutateAsync(values);
    } catch (err) {
      showFieldErrors(form, err);
    }
  }

  function remove(role: Role) {
    modal.confirm({
      title: '提示',
      content: `确定删除角色“${role.name}”吗？拥有该角色的${role.userCount}个用户将失去它的权限。`,
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { danger: true },
      onOk: () => removal.mutateAsync(role.id),
    });
  }

  return (
    <Card
      title="角色管理"
      extra={
        canEdit && (
          <Button type="primary" onClick={() => open(null)}>
            新建角色
          </Button>
        )
      }
    >
      <Table<Role>
        rowKey="id"
        loading={roles.isLoading}
        dataSource={roles.data}
        pagination={false}
        locale={{ emptyText: '暂无角色' }}
        columns={[
          { title: '角色名称', dataIndex: 'name' },
          { title: '角色编码', dataIndex: 'code' },
          { title: '说明', dataIndex: 'description' },
          { title: '权限数', render: (_, r) => r.permissions.length },
          { title: '用户数', dataIndex: 'userCount' },
          { title: '类型', render: (_, r) => (r.builtin ? <Tag color="blue">内置</Tag> : <Tag>自定义</Tag>) },
          ...(canEdit
            ? [
                {
                  title: '操作',
                  key: 'actions',
                  render: (_: unknown, r: Role) => (
                    <Space size={0}>
                      <Button type="link" size="small" onClick={() => open(r)}>
                        编辑权限
                      </Button>
                      {!r.builtin && (
                        <Button type="link" size="small" danger onClick={() => remove(r)}>
                          删除
                        </Button>
                      )}
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Modal
        open={editing !== null}
        width={760}
        title={editing?.role ? `编辑角色：${editing.role.name}` : '新建角色'}
        okText="保存"
        cancelText="取消"
        confirmLoading={saving.isPending}
        onOk={save}
        onCancel={() => setEditing(null)}
      >
        <Form form={form} layout="vertical">
          <Space size={16} style={{ display: 'flex' }}>
            <Form.Item name="code" label="角色编码" rules={[{ required: true, message: '请输入角色编码' }]}>
              <Input disabled={Boolean(editing?.role)} placeholder="如 finance" />
            </Form.Item>
            <Form.Item name="name" label="角色名称" rules={[{ required: true, message: '请输入角色名称' }]}>
              <Input />
            </Form.Item>
            <Form.Item name="description" label="说明" style={{ flex: 1 }}>
              <Input />
            </Form.Item>
          </Space>
          <Form.Item name="permissions" label="权限">
            <Checkbox.Group style={{ display: 'block' }}>
              {PERMISSION_CATALOGUE.map((g) => (
                <div key={g.title}>
                  <Divider orientation="left" plain style={{ margin: '8px 0' }}>
                    <Typography.Text strong>{g.title}</Typography.Text>
                  </Divider>
                  <Space wrap>
                    {g.items.map((i) => (
                      <Checkbox key={i.code} value={i.code}>
                        {i.title}
                      </Checkbox>
                    ))}
                  </Space>
                </div>
              ))}
            </Checkbox.Group>
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
