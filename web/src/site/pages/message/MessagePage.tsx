import { NOTICE_KIND, NOTICE_KIND_TEXT, UNREAD_BADGE_MAX, type Message, type Page, type UnreadCount } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Card, Collapse, Empty, Pagination, Result, Space, Spin, Switch, Tabs } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { messageApi, messageKeys } from '#src/api/notices.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { goLogin } from '#src/common/http.ts';
import { pager } from '#src/common/pager.ts';
import { formatMinute } from '#src/common/time.ts';
import { setUnread, useUnread } from '../../unread.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';

const KINDS = [NOTICE_KIND.system, NOTICE_KIND.personal] as const;
type Kind = (typeof KINDS)[number];
/** Which count of `check/read` belongs to which tab (spec §3: person, system). */
const COUNT_OF: Record<Kind, keyof UnreadCount> = { [NOTICE_KIND.system]: 'system', [NOTICE_KIND.personal]: 'person' };

type Paging = { page: number; limit: number };
const FIRST_PAGE: Paging = { page: 1, limit: 20 };

/** Marks messages of the cached lists read, without asking for the lists again. */
function markedRead(page: Page<Message> | undefined, read: (m: Message) => boolean): Page<Message> | undefined {
  return page && { ...page, list: page.list.map((m) => (!m.read && read(m) ? { ...m, read: true } : m)) };
}

function MessageTitle({ message }: { message: Message }) {
  return (
    <span className={message.read ? 'message-title' : 'message-title message-unread'} data-testid={message.read ? 'message-read' : 'message-unread'}>
      {!message.read && <Badge status="error" aria-label="未读" />}
      {message.title}
    </span>
  );
}

function MessageBox() {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const kind: Kind = params.get('kind') === String(NOTICE_KIND.personal) ? NOTICE_KIND.personal : NOTICE_KIND.system;
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [paging, setPaging] = useState<Paging>(FIRST_PAGE);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [markingAll, setMarkingAll] = useState(false);
  const { data: counts } = useUnread(true);
  const messages = useQuery({
    queryKey: messageKeys.list(kind, { ...paging, unreadOnly }),
    queryFn: () => messageApi.list(kind, { ...paging, unreadOnly }),
  });
  const unreadOfKind = counts?.[COUNT_OF[kind]] ?? 0;

  function showKind(next: Kind) {
    setParams(next === NOTICE_KIND.personal ? { kind: String(next) } : {}, { replace: true });
    setPaging(FIRST_PAGE);
    setExpanded([]);
  }

  async function markRead(message: Message) {
    setUnread(client, await messageApi.markRead(message.id));
    client.setQueriesData<Page<Message>>({ queryKey: messageKeys.all }, (page) => markedRead(page, (m) => m.id === message.id));
  }

  async function markAllRead() {
    setMarkingAll(true);
    try {
      setUnread(client, await messageApi.markAllRead(kind));
      client.setQueriesData<Page<Message>>({ queryKey: messageKeys.kind(kind) }, (page) => markedRead(page, () => true));
      if (unreadOnly) await client.invalidateQueries({ queryKey: messageKeys.kind(kind) });
    } finally {
      setMarkingAll(false);
    }
  }

  function onExpand(keys: string | string[]) {
    const next = ([] as string[]).concat(keys);
    const opened = next.filter((k) => !expanded.includes(k));
    setExpanded(next);
    for (const key of opened) {
      const message = messages.data?.list.find((m) => String(m.id) === key);
      if (message && !message.read) void markRead(message).catch(() => undefined);
    }
  }

  const list = messages.data?.list ?? [];
  return (
    <Card
      title="消息通知"
      extra={
        <Space size="middle">
          <label>
            <Space size={6}>
              <Switch
                size="small"
                aria-label="只看未读"
                checked={unreadOnly}
                onChange={(on) => {
                  setUnreadOnly(on);
                  setPaging(FIRST_PAGE);
                  setExpanded([]);
                }}
              />
              只看未读
            </Space>
          </label>
          <Button size="small" disabled={!unreadOfKind} loading={markingAll} onClick={() => void markAllRead().catch(() => undefined)}>
            全部标为已读
          </Button>
        </Space>
      }
    >
      <Tabs
        activeKey={String(kind)}
        onChange={(key) => showKind(Number(key) as Kind)}
        items={KINDS.map((k) => {
          const unread = counts?.[COUNT_OF[k]] ?? 0;
          return {
            key: String(k),
            label: (
              <span data-testid={`message-tab-${k}`} data-count={unread}>
                {NOTICE_KIND_TEXT[k]}
                <Badge count={unread} overflowCount={UNREAD_BADGE_MAX} size="small" offset={[6, -4]} />
              </span>
            ),
          };
        })}
      />
      {messages.isLoading ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : list.length === 0 ? (
        <Empty description="暂无消息" />
      ) : (
        <>
          <Collapse
            activeKey={expanded}
            onChange={onExpand}
            items={list.map((m) => ({
              key: String(m.id),
              label: <MessageTitle message={m} />,
              extra: <span className="message-time">{formatMinute(m.publishedAt)}</span>,
              children: m.content ? (
                <div className="rich-text" dangerouslySetInnerHTML={{ __html: m.content }} />
              ) : (
                <span className="message-time">无正文</span>
              ),
            }))}
          />
          <Pagination
            align="end"
            style={{ marginTop: 16 }}
            {...pager(messages.data, (page, limit) => {
              setPaging({ page, limit });
              setExpanded([]);
            })}
          />
        </>
      )}
    </Card>
  );
}

/** `/message`: the user's system notices and personal messages (spec §2.1, §3); logged-in users only. */
export default function MessagePage() {
  const { data: user, isLoading } = useCurrentUser();
  if (isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (!user) return <Result status="403" title="请先登录" subTitle="登录后才能查看消息" extra={<ActionLink onClick={goLogin}>去登录</ActionLink>} />;
  return <MessageBox />;
}
