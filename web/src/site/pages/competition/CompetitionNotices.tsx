import { NOTICE_KIND, type Message, type Page } from '@contest/shared';
import { NotificationOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Card, Collapse, Pagination, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { messageApi, messageKeys } from '#src/api/notices.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { formatMinute } from '#src/common/time.ts';
import { setUnread } from '../../unread.ts';

const LIMIT = 5;

function Announcements({ competitionId }: { competitionId: number }) {
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const [expanded, setExpanded] = useState<string[]>([]);
  const { data } = useQuery({
    // Under the message lists' key: the server's `unread` events refresh it when a notice comes or goes.
    queryKey: messageKeys.competition(competitionId, page),
    queryFn: () => messageApi.competition(competitionId, { page, limit: LIMIT }),
  });
  if (!data?.total) return null;
  const unread = data.list.filter((m) => !m.read).length;

  async function markRead(message: Message) {
    setUnread(client, await messageApi.markRead(message.id));
    // The same copy is read on the message page and here.
    client.setQueriesData<Page<Message>>(
      { queryKey: messageKeys.all },
      (p) => p && { ...p, list: p.list.map((m) => (m.id === message.id ? { ...m, read: true } : m)) },
    );
  }

  function onExpand(keys: string | string[]) {
    const next = ([] as string[]).concat(keys);
    for (const key of next.filter((k) => !expanded.includes(k))) {
      const message = data?.list.find((m) => String(m.id) === key);
      if (message && !message.read) void markRead(message).catch(() => undefined);
    }
    setExpanded(next);
  }

  return (
    <Card
      size="small"
      data-testid="competition-notices"
      style={{ marginBottom: 16 }}
      title={
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
          <NotificationOutlined />
          公告
          {unread > 0 && <Badge count={unread} size="small" title={`${unread}条未读`} />}
        </span>
      }
      extra={<Link to="/message">全部消息</Link>}
    >
      <Collapse
        ghost
        size="small"
        activeKey={expanded}
        onChange={onExpand}
        items={data.list.map((m) => ({
          key: String(m.id),
          label: (
            <span
              style={{ display: 'inline-flex', alignItems: 'center', gap: 8, fontWeight: m.read ? undefined : 600, minWidth: 0, wordBreak: 'break-word' }}
              data-testid={m.read ? 'notice-read' : 'notice-unread'}
            >
              {!m.read && <Badge status="error" aria-label="未读" />}
              {m.title}
              {m.kind === NOTICE_KIND.personal && <Tag color="blue">本队</Tag>}
            </span>
          ),
          extra: <span style={{ color: 'rgba(0, 0, 0, 0.45)', fontSize: 13, whiteSpace: 'nowrap' }}>{formatMinute(m.publishedAt)}</span>,
          children: m.content ? (
            <div className="rich-text" dangerouslySetInnerHTML={{ __html: m.content }} />
          ) : (
            <span style={{ color: 'rgba(0, 0, 0, 0.45)' }}>无正文</span>
          ),
        }))}
      />
      {data.total > LIMIT && (
        <Pagination
          size="small"
          align="end"
          style={{ marginTop: 8 }}
          current={data.page}
          pageSize={LIMIT}
          total={data.total}
          showTotal={(total) => `共 ${total} 条`}
          onChange={(p) => {
            setPage(p);
            setExpanded([]);
          }}
        />
      )}
    </Card>
  );
}

/**
 * A competition's announcements (「公告」): the notices that reached the logged-in user, newest first; opening one marks
 * it read, as on the message page. Nothing shows for a visitor or when there is no notice for the user.
 */
export default function CompetitionNotices({ competitionId }: { competitionId: number }) {
  const { data: user } = useCurrentUser();
  return user ? <Announcements competitionId={competitionId} /> : null;
}
