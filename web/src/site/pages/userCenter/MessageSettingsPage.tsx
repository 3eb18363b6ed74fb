import { MESSAGE_KINDS, type MessagePreferences } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Card, Space, Spin, Switch, Table, Typography } from 'antd';
import { Link } from 'react-router';
import { outboxApi, outboxKeys } from '#src/api/outbox.ts';
import { useAuthConfig } from '#src/common/siteConfig.ts';

type Row = MessagePreferences['kinds'][number];

/**
 * 消息设置 (issue 35): per kind of message, whether it also comes by email and by SMS. In-app messages always come.
 * Each switch saves at once.
 */
export default function MessageSettingsPage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const { data: config } = useAuthConfig();
  const { data, isLoading } = useQuery({ queryKey: outboxKeys.preferences, queryFn: () => outboxApi.preferences() });
  if (isLoading || !data) return <Spin />;

  async function toggle(row: Row, channel: 'email' | 'sms', on: boolean) {
    const kinds = data!.kinds.map((k) => (k.kind === row.kind ? { ...k, [channel]: on } : k));
    const saved = await outboxApi.savePreferences(kinds);
    client.setQueryData(outboxKeys.preferences, saved);
    void message.success('消息设置已保存');
  }

  const channel = (c: 'email' | 'sms', row: Row) => {
    const verified = c === 'email' ? data.emailVerified : data.phoneVerified;
    const offered = c === 'email' ? config?.mailEnabled : config?.smsEnabled;
    return (
      <Switch
        aria-label={`${MESSAGE_KINDS[row.kind]}${c === 'email' ? '邮件' : '短信'}`}
        checked={row[c]}
        disabled={!offered}
        onChange={(on) => void toggle(row, c, on)}
        title={verified ? undefined : '尚未验证，验证后才能收到'}
      />
    );
  };

  return (
    <Card title="消息设置">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          站内消息总会送达。下面选择哪些消息也通过邮件或短信通知您；验证码、找回密码等由您本人发起的消息总会发送。
        </Typography.Paragraph>
        {(!data.emailVerified || !data.phoneVerified) && (
          <Alert
            type="info"
            showIcon
            message={
              <>
                {!data.emailVerified && '邮箱尚未验证，收不到邮件。'}
                {!data.phoneVerified && '手机号尚未验证，收不到短信。'}
                请到<Link to="/userCenter/myInfo">个人信息</Link>验证。
              </>
            }
          />
        )}
        <Table<Row>
          rowKey="kind"
          pagination={false}
          dataSource={data.kinds}
          columns={[
            { title: '消息类型', render: (_, r) => MESSAGE_KINDS[r.kind] },
            { title: '站内消息', render: () => <Typography.Text type="secondary">总是接收</Typography.Text> },
            { title: '邮件', render: (_, r) => channel('email', r) },
            { title: '短信', render: (_, r) => channel('sms', r) },
          ]}
        />
      </Space>
    </Card>
  );
}
