import { PASSWORD_HINT, checkPasswordStrength, describeUserAgent, type ChangePasswordBody } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { authApi, authKeys, authUrls, type SessionRow } from '#src/api/auth.ts';
import { useAuthConfig } from '#src/common/siteConfig.ts';
import { WechatOutlined } from '@ant-design/icons';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { ruleFrom, sameAsRule, showFieldErrors } from '#src/common/forms.ts';
import { accountApi } from '#src/api/users.ts';
import { useCurrentUser, useRefreshUser } from '#src/common/auth.ts';

const time = (iso: string) => new Date(iso).toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai', hour12: false });

/** The first password of an account made by an SMS code: no old one to give. */
function SetPasswordCard() {
  const { message } = App.useApp();
  const refresh = useRefreshUser();
  const [form] = Form.useForm<{ password: string; confirm: string }>();
  const [saving, setSaving] = useState(false);
  async function save({ password }: { password: string }) {
    setSaving(true);
    try {
      await accountApi.setPassword(password);
      void message.success('密码已设置，以后也可以用用户名和密码登录');
      form.resetFields();
      await refresh();
    } catch (err) {
      showFieldErrors(form, err);
    } finally {
      setSaving(false);
    }
  }
  return (
    <Card title="设置密码">
      <Typography.Paragraph type="secondary">该账号通过手机验证码注册，还没有密码。设置后也可以用用户名和密码登录。</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={save} style={{ maxWidth: 400 }}>
        <Form.Item name="password" label="密码" rules={[{ required: true, message: '请输入密码' }, ruleFrom(checkPasswordStrength)]} extra={PASSWORD_HINT}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirm" label="确认密码" dependencies={['password']} rules={[{ required: true, message: '请再次输入密码' }, sameAsRule('password')]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <GuardedButton type="primary" htmlType="submit" loading={saving}>
          设置密码
        </GuardedButton>
      </Form>
    </Card>
  );
}

/** 微信绑定: bind the account's WeChat (a scan), or unbind it (confirmed; refused when it is the only way in). */
function WechatCard() {
  const { message, modal } = App.useApp();
  const { data: user } = useCurrentUser();
  const { data: config } = useAuthConfig();
  const refresh = useRefreshUser();
  const params = new URLSearchParams(location.search);
  const error = params.get('wechatError');
  if (!config?.wechatEnabled || !user) return null;
  function unbind() {
    modal.confirm({
      title: '解绑微信',
      content: '解绑后不能再用这个微信扫码登录本账号。确定解绑吗？',
      okText: '解绑',
      cancelText: '取消',
      onOk: async () => {
        await accountApi.unbindWechat();
        void message.success('已解绑微信');
        await refresh();
      },
    });
  }
  return (
    <Card title="微信绑定">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      {params.get('wechat') === 'bound' && user.wechat && <Alert type="success" showIcon message="微信绑定成功" style={{ marginBottom: 16 }} />}
      {user.wechat ? (
        <Space wrap>
          <WechatOutlined style={{ color: '#07c160', fontSize: 20 }} />
          <span>已绑定微信：{user.wechat}</span>
          <Button danger onClick={unbind}>
            解绑
          </Button>
        </Space>
      ) : (
        <Space wrap>
          <Typography.Text type="secondary">绑定后可以用微信扫码登录本账号。</Typography.Text>
          <Button icon={<WechatOutlined style={{ color: '#07c160' }} />} href={authUrls.wechatBind}>
            绑定微信
          </Button>
        </Space>
      )}
    </Card>
  );
}

export default function AccountSetPage() {
  const { data: user } = useCurrentUser();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<ChangePasswordBody & { confirm: string }>();
  const [saving, setSaving] = useState(false);
  const client = useQueryClient();
  const sessions = useQuery({ queryKey: authKeys.sessions, queryFn: () => authApi.sessions() });
  const reloadSessions = () => client.invalidateQueries({ queryKey: authKeys.sessions });

  async function changePassword({ confirm: _c, ...values }: ChangePasswordBody & { confirm: string }) {
    setSaving(true);
    try {
      await authApi.changePassword(values);
      void message.success('密码已修改，其他设备上的登录已退出');
      form.resetFields();
      await reloadSessions();
    } catch (err) {
      showFieldErrors(form, err);
    } finally {
      setSaving(false);
    }
  }

  function revokeOthers() {
    modal.confirm({
      title: '提示',
      content: '确定退出其他所有设备上的登录吗？',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        const { revoked } = await authApi.revokeOthers();
        void message.success(`已退出${revoked}个其他登录`);
        await reloadSessions();
      },
    });
  }

  const others = (sessions.data ?? []).filter((s) => !s.current).length;
  return (
    <Space direction="vertical" size={24} style={{ width: '100%' }}>
      {user && !user.hasPassword ? <SetPasswordCard /> : null}
      {user?.hasPassword === false ? null : (
        <Card title="修改密码">
          <Form form={form} layout="vertical" onFinish={changePassword} style={{ maxWidth: 400 }}>
            <Form.Item name="oldPassword" label="原密码" rules={[{ required: true, message: '请输入原密码' }]}>
              <Input.Password autoComplete="current-password" />
            </Form.Item>
            <Form.Item
              name="newPassword"
              label="新密码"
              rules={[{ required: true, message: '请输入新密码' }, ruleFrom(checkPasswordStrength)]}
              extra={PASSWORD_HINT}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              name="confirm"
              label="确认新密码"
              dependencies={['newPassword']}
              rules={[{ required: true, message: '请再次输入新密码' }, sameAsRule('newPassword')]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <GuardedButton type="primary" htmlType="submit" loading={saving}>
              修改密码
            </GuardedButton>
          </Form>
        </Card>
      )}
      <WechatCard />
      <Card
        title="登录设备"
        extra={
          <Button danger disabled={others === 0} onClick={revokeOthers}>
            退出其他设备
          </Button>
        }
      >
        <Table<SessionRow>
          rowKey={(r) => r.createdAt + r.lastSeenAt + String(r.current)}
          loading={sessions.isLoading}
          dataSource={sessions.data}
          pagination={false}
          locale={{ emptyText: '暂无登录记录' }}
          columns={[
            { title: '类型', render: (_, r) => (r.kind === 'browser' ? '浏览器' : '桌面客户端') },
            { title: 'IP', dataIndex: 'ip' },
            {
              title: '设备',
              render: (_, r) => <span title={r.userAgent ?? undefined}>{r.kind === 'browser' ? describeUserAgent(r.userAgent) : '桌面客户端'}</span>,
            },
            { title: '登录时间', render: (_, r) => time(r.createdAt) },
            { title: '最近活动', render: (_, r) => time(r.lastSeenAt) },
            { title: '', render: (_, r) => (r.current ? <Tag color="blue">当前设备</Tag> : null) },
          ]}
        />
      </Card>
    </Space>
  );
}
