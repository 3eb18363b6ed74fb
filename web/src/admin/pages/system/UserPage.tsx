import { ACTION_CODES, PASSWORD_HINT, checkPasswordStrength, maskPhone, type CreateUserBody, type UserListItem } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useCurrentUser, usePermissions } from '#src/common/auth.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { AccountFields } from '#src/common/AccountFields.tsx';
import { ruleFrom, showFieldErrors } from '#src/common/forms.ts';
import { userApi, userKeys, type UserListParams } from '#src/api/users.ts';
import { useListMutation, useListState, usePagedList } from '#src/common/usePagedList.ts';

type Dialog = { kind: 'roles' | 'org' | 'password'; user: UserListItem } | null;

const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai', hour12: false }) : '从未登录');

export default function UserPage() {
  const { message, modal } = App.useApp();
  const { has } = usePermissions();
  const { data: me } = useCurrentUser();
  const canEdit = has(ACTION_CODES.userEdit);
  const list = usePagedList(useListState<UserListParams>(), { queryKey: userKeys.list, queryFn: userApi.list, emptyText: '没有符合条件的用户' });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [dialogForm] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const [creating, setCreating] = useState(false);

  const roles = useQuery({ queryKey: userKeys.roleOptions, queryFn: userApi.roleOptions });
  const orgs = useQuery({ queryKey: userKeys.orgOptions, queryFn: userApi.orgOptions });
  const setStatus = useListMutation(
    ({ id, status }: { id: number; status: 0 | 1 }) => userApi.setStatus(id, status),
    [userKeys.all],
    (_, { status }) => void message.success(status ? '账号已启用' : '账号已停用'),
  );
  const saveDialog = useListMutation(
    async ({ kind, id, values }: { kind: NonNullable<Dialog>['kind']; id: number; values: { roleIds?: number[]; orgId?: number; password?: string } }) => {
      if (kind === 'roles') await userApi.setRoles(id, values.roleIds ?? []);
      if (kind === 'org') await userApi.setOrg(id, values.orgId ?? null);
      if (kind === 'password') await userApi.setPassword(id, values.password ?? '');
    },
    [userKeys.all],
    () => {
      void message.success('已保存');
      setDialog(null);
    },
  );

  function toggleStatus(user: UserListItem) {
    const disabling = user.status === 1;
    modal.confirm({
      title: '提示',
      content: disabling ? `确定停用账号“${user.username}”吗？停用后该用户将立即退出登录。` : `确定启用账号“${user.username}”吗？`,
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { danger: disabling },
      onOk: () => setStatus.mutateAsync({ id: user.id, status: disabling ? 0 : 1 }),
    });
  }

  const open = (kind: NonNullable<Dialog>['kind'], user: UserListItem) => setDialog({ kind, user });

  async function submitDialog() {
    if (!dialog) return;
    const values = await dialogForm.validateFields();
    setSaving(true);
    try {
      await saveDialog.mutateAsync({ kind: dialog.kind, id: dialog.user.id, values });
    } catch (err) {
      showFieldErrors(dialogForm, err);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card title="用户管理">
      <Form layout="inline" style={{ marginBottom: 16, rowGap: 8 }} onFinish={(v) => list.search({ ...v, keyword: v.keyword?.trim() || undefined })}>
        <Form.Item name="keyword">
          <Input placeholder="用户名、姓名、手机号或邮箱" allowClear style={{ width: 240 }} />
        </Form.Item>
        <Form.Item name="status">
          <Select
            placeholder="状态"
            allowClear
            style={{ width: 110 }}
            options={[
              { value: 1, label: '启用' },
              { value: 0, label: '停用' },
            ]}
          />
        </Form.Item>
        <Form.Item name="roleId">
          <Select placeholder="角色" allowClear style={{ width: 140 }} options={roles.data?.map((r) => ({ value: r.id, label: r.name }))} />
        </Form.Item>
        <Form.Item name="orgId">
          <Select placeholder="组织" allowClear style={{ width: 180 }} options={orgs.data?.map((o) => ({ value: o.id, label: o.name }))} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          查询
        </Button>
        {canEdit && (
          <Button style={{ marginInlineStart: 8 }} onClick={() => setCreating(true)}>
            新增用户
          </Button>
        )}
      </Form>
      <Table<UserListItem>
        {...list.table}
        scroll={{ x: 1000 }}
        columns={[
          { title: '用户名', dataIndex: 'username' },
          { title: '姓名', dataIndex: 'userName' },
          { title: '手机号', render: (_, u) => (u.phone ? maskPhone(u.phone) : '') },
          { title: '角色', render: (_, u) => u.roles.map((r) => <Tag key={r.id}>{r.name}</Tag>) },
          { title: '所属组织', dataIndex: 'orgName' },
          { title: '状态', render: (_, u) => (u.status === 1 ? <Tag color="green">启用</Tag> : <Tag color="red">停用</Tag>) },
          { title: '最近登录', render: (_, u) => time(u.lastLoginAt) },
          ...(canEdit
            ? [
                {
                  title: '操作',
                  key: 'actions',
                  fixed: 'right' as const,
                  width: 300,
                  render: (_: unknown, u: UserListItem) => (
                    <Space size={0}>
                      <Button type="link" size="small" onClick={() => open('roles', u)}>
                        分配角色
                      </Button>
                      <Button type="link" size="small" onClick={() => open('org', u)}>
                        分配组织
                      </Button>
                      <Button type="link" size="small" onClick={() => open('password', u)}>
                        重置密码
                      </Button>
                      {u.id !== me?.id && (
                        <Button type="link" size="small" danger={u.status === 1} onClick={() => toggleStatus(u)}>
                          {u.status === 1 ? '停用' : '启用'}
                        </Button>
                      )}
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      {creating && (
        <CreateUserModal
          roles={roles.data ?? []}
          orgs={orgs.data ?? []}
          onSave={async (body) => {
            const made = await userApi.create(body);
            void message.success(`用户“${made.username}”已创建`);
            await list.result.refetch();
          }}
          onClose={() => setCreating(false)}
        />
      )}
      <Modal
        open={dialog !== null}
        title={dialog && `${{ roles: '分配角色', org: '分配组织', password: '重置密码' }[dialog.kind]}：${dialog.user.username}`}
        okText="保存"
        cancelText="取消"
        confirmLoading={saving}
        onOk={submitDialog}
        onCancel={() => setDialog(null)}
        destroyOnHidden
      >
        <Form
          form={dialogForm}
          layout="vertical"
          preserve={false}
          // A form of its own per dialog, starting from that user's values.
          key={dialog ? `${dialog.kind}-${dialog.user.id}` : 'none'}
          initialValues={dialog ? { roleIds: dialog.user.roles.map((r) => r.id), orgId: dialog.user.orgId ?? undefined } : undefined}
        >
          {dialog?.kind === 'roles' && (
            <Form.Item name="roleIds" label="角色">
              <Checkbox.Group options={roles.data?.map((r) => ({ value: r.id, label: r.name }))} />
            </Form.Item>
          )}
          {dialog?.kind === 'org' && (
            <Form.Item name="orgId" label="所属组织" extra="组织方账号只能看到本组织的竞赛">
              <Select allowClear placeholder="不属于任何组织" options={orgs.data?.map((o) => ({ value: o.id, label: o.name }))} />
            </Form.Item>
          )}
          {dialog?.kind === 'password' && (
            <Form.Item
              name="password"
              label="新密码"
              extra={`${PASSWORD_HINT}。重置后该用户需用新密码重新登录。`}
              rules={[{ required: true, message: '请输入新密码' }, ruleFrom(checkPasswordStrength)]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </Card>
  );
}

type CreateValues = CreateUserBody & { confirm: string };

/**
 * 新增用户: an account as sign-up makes one, with the initial password the administrator hands over, a real name, an
 * organisation and roles (none chosen: a participant). Refusals from the server show on their fields.
 */
function CreateUserModal({
  roles,
  orgs,
  onSave,
  onClose,
}: {
  roles: { id: number; name: string }[];
  orgs: { id: number; name: string }[];
  onSave: (body: CreateUserBody) => Promise<void>;
  onClose: () => void;
}) {
  return (
    <FormModal<CreateValues>
      title="新增用户"
      okText="创建"
      onSave={({ confirm: _confirm, userName, phone, email, ...rest }) =>
        onSave({ ...rest, ...(userName?.trim() && { userName: userName.trim() }), ...(phone && { phone }), ...(email && { email }) })
      }
      onClose={onClose}
    >
      <AccountFields byAdmin />
      <Form.Item name="userName" label="姓名（选填）" rules={[{ max: 50, message: '姓名至多50个字' }]}>
        <Input />
      </Form.Item>
      <Form.Item name="orgId" label="所属组织（选填）" extra="组织方账号只能看到本组织的竞赛">
        <Select allowClear placeholder="不属于任何组织" options={orgs.map((o) => ({ value: o.id, label: o.name }))} />
      </Form.Item>
      <Form.Item name="roleIds" label="角色" extra="不选时为参赛者">
        <Checkbox.Group options={roles.map((r) => ({ value: r.id, label: r.name }))} />
      </Form.Item>
    </FormModal>
  );
}
