import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  NOTICE_KIND,
  NOTICE_KIND_TEXT,
  NOTICE_STATUS,
  NOTICE_STATUS_TEXT,
  PAY_STATUS_FILTER_TEXT,
  REGISTER_STATUS_FILTER_TEXT,
  TARGET_SCOPE_TEXT,
  WORKS_FILTER_TEXT,
  laterRecipientsText,
  noticeTarget,
  type Notice,
  type NoticeBody,
  type NoticeTarget,
} from '@contest/shared';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Col, Descriptions, Form, Input, Modal, Progress, Radio, Row, Select, Space, Table, Tag, Tooltip } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { noticeApi, noticeKeys, type NoticeListParams } from '#src/api/notices.ts';
import { useIsPlatform, usePermissions } from '#src/common/auth.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { textOptions } from '#src/common/forms.ts';
import { HttpError, sysTime } from '#src/common/http.ts';
import { formatMinute } from '#src/common/time.ts';
import { DateTimePicker } from '../../components/DateTimePicker.tsx';
import { FilterForm } from '../../components/FilterForm.tsx';
import { useCompetitionOptions } from '../../components/options.ts';
import { RichTextField, RichTextView, richTextOrNull } from '../../components/RichTextField.tsx';
import { useConfirm } from '../../components/useConfirm.ts';
import { useListMutation, useListState, usePagedList } from '#src/common/usePagedList.ts';
import { fromPicker, toPicker } from '#src/common/beijing.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';

const STATUS_COLORS: Record<number, string> = {
  [NOTICE_STATUS.draft]: 'default',
  [NOTICE_STATUS.scheduled]: 'processing',
  [NOTICE_STATUS.published]: 'success',
};
const RECIPIENTS_DEBOUNCE_MS = 500;

type Scope = NoticeTarget['scope'];
type RegisterStatus = keyof typeof REGISTER_STATUS_FILTER_TEXT;
type PayStatus = keyof typeof PAY_STATUS_FILTER_TEXT;
type Works = keyof typeof WORKS_FILTER_TEXT;

/** The scopes each kind may use (spec §3: a system notice to everyone or a competition, a personal message to users or teams). */
const SCOPES_OF_KIND: Record<number, Scope[]> = { [NOTICE_KIND.system]: ['all', 'competition'], [NOTICE_KIND.personal]: ['users', 'teams'] };
const PLATFORM_SCOPES: Scope[] = ['all', 'users'];
const scopesFor = (kind: number, platform: boolean) => SCOPES_OF_KIND[kind]!.filter((s) => platform || !PLATFORM_SCOPES.includes(s));
/** A new notice starts narrow: a competition's users, or (for the platform) named users. */
const defaultScope = (kind: number, platform: boolean) => scopesFor(kind, platform).find((s) => s !== 'all')!;

/** The target as the form holds it: the fields of every scope side by side. */
interface TargetValues {
  scope?: Scope;
  competitionId?: number;
  registerStatus?: RegisterStatus | null;
  payStatus?: PayStatus | null;
  works?: Works | null;
  usernames?: string[];
  teamNos?: string[];
}
interface Values {
  kind: 0 | 1;
  title: string;
  content?: string | null;
  target: TargetValues;
  /** Also by 邮件 and 短信 (in-app always). */
  channels?: ('email' | 'sms')[];
}

const stringOptions = (texts: Record<string, string>) => Object.entries(texts).map(([value, label]) => ({ value, label }));
/** Names typed or pasted into a tags box: trimmed, without blanks and repeats. */
const cleanList = (names: string[] | undefined) => [...new Set((names ?? []).map((n) => n.trim()).filter(Boolean))];

/** The target the form describes, with only its scope's fields (the server takes no others). */
export function targetOf(t: TargetValues | undefined): NoticeTarget | null {
  switch (t?.scope) {
    case 'all':
      return { scope: 'all' };
    case 'competition':
      return {
        scope: 'competition',
        competitionId: t.competitionId as number,
        ...(t.registerStatus ? { registerStatus: t.registerStatus } : {}),
        ...(t.payStatus ? { payStatus: t.payStatus } : {}),
        ...(t.works ? { works: t.works } : {}),
      };
    case 'users':
      return { scope: 'users', usernames: cleanList(t.usernames) };
    case 'teams':
      return { scope: 'teams', competitionId: t.competitionId as number, teamNos: cleanList(t.teamNos) };
    default:
      return null;
  }
}

const few = (names: string[], unit: string) => (names.length > 3 ? `${names.slice(0, 3).join('、')} 等${names.length}${unit}` : names.join('、'));

/** One line saying whom a notice reaches: the scope, the competition and its filters, or the first names. */
export function targetSummary(target: NoticeTarget, competitionName: string | null): string {
  const scope = TARGET_SCOPE_TEXT[target.scope];
  switch (target.scope) {
    case 'all':
      return scope;
    case 'competition': {
      const filters = [
        target.registerStatus && REGISTER_STATUS_FILTER_TEXT[target.registerStatus],
        target.payStatus && PAY_STATUS_FILTER_TEXT[target.payStatus],
        target.works && WORKS_FILTER_TEXT[target.works],
      ].filter(Boolean);
      return `${scope}：${competitionName ?? `竞赛${target.competitionId}`}${filters.length ? `（${filters.join('、')}）` : ''}`;
    }
    case 'users':
      return `${scope}：${few(target.usernames, '位')}`;
    case 'teams':
      return `${scope}：${competitionName ?? `竞赛${target.competitionId}`} ${few(target.teamNos, '支')}`;
  }
}

/**
 * Server field errors where the form shows them: a target that does not fit the kind (`target`) next to the scope,
 * one bad name of a list (`target.usernames.3`) next to the list.
 */
function onTargetFields(err: unknown): unknown {
  if (!(err instanceof HttpError) || !err.fields) return err;
  const fields: Record<string, string> = {};
  for (const [path, text] of Object.entries(err.fields)) {
    const name = path === 'target' ? 'target.scope' : path.replace(/^target\.(usernames|teamNos)\.\d+$/, 'target.$1');
    fields[name] ??= text;
  }
  return new HttpError(err.status, err.message, fields);
}

function useDebounced<T>(value: T, ms: number): T {
  const json = JSON.stringify(value ?? null);
  const [settled, setSettled] = useState(json);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(json), ms);
    return () => clearTimeout(timer);
  }, [json, ms]);
  return JSON.parse(settled) as T;
}

/**
 * "将发送给 N 位用户", and of them how many an email and a text would reach (a verified address, that kind of message
 * not turned off): asked a moment after the target stops changing.
 */
function RecipientCount({ target, channels }: { target: NoticeTarget | null; channels: ('email' | 'sms')[] }) {
  const settled = useDebounced(target, RECIPIENTS_DEBOUNCE_MS);
  const valid = settled !== null && noticeTarget.safeParse(settled).success;
  const { data, isError } = useQuery({
    queryKey: noticeKeys.recipients(settled),
    queryFn: () => noticeApi.recipients(settled!),
    enabled: valid,
    staleTime: 10_000,
  });
  if (!valid) return <span className="admin-hint">选定发送对象后显示接收人数</span>;
  if (isError) return <span className="admin-hint">暂时无法统计接收人数</span>;
  if (!data) return <span className="admin-hint">正在统计接收人数…</span>;
  const extra = [channels.includes('email') && `其中 ${data.emails} 人将收到邮件`, channels.includes('sms') && `${data.texts} 人将收到短信`].filter(Boolean);
  return (
    <span data-testid="notice-recipients">
      将发送给 {data.count} 位用户{extra.length ? `，${extra.join('，')}` : ''}
    </span>
  );
}

/** Kind, title, content and target of a notice; the scopes offered follow the kind. */
function NoticeFields({ platform }: { platform: boolean }) {
  const form = Form.useFormInstance<Values>();
  const kind = (Form.useWatch('kind', form) as number | undefined) ?? NOTICE_KIND.system;
  const target = Form.useWatch('target', form) as TargetValues | undefined;
  const channels = Form.useWatch('channels', form) as Values['channels'];
  const scope = target?.scope;
  const canListCompetitions = usePermissions().has(ADMIN_MENU_CODES.competition);
  const competitions = useCompetitionOptions(canListCompetitions);
  const scopes = scopesFor(kind, platform);
  const tags = { mode: 'tags' as const, open: false, suffixIcon: null, tokenSeparators: [',', '，', ';', '；', ' ', '\n'] };

  return (
    <>
      <Form.Item name="kind" label="类型" rules={[{ required: true, message: '请选择通知类型' }]}>
        <Radio.Group
          options={textOptions(NOTICE_KIND_TEXT)}
          onChange={(e) => form.setFieldValue(['target', 'scope'], defaultScope(e.target.value as number, platform))}
        />
      </Form.Item>
      <Form.Item name="title" label="标题" rules={[{ required: true, whitespace: true, message: '请输入标题' }]}>
        <Input maxLength={100} showCount />
      </Form.Item>
      <Form.Item name="content" label="内容">
        <RichTextField placeholder="通知正文" height={260} />
      </Form.Item>
      <Form.Item name={['target', 'scope']} label="发送对象" rules={[{ required: true, message: '请选择发送对象' }]}>
        <Radio.Group options={scopes.map((s) => ({ value: s, label: TARGET_SCOPE_TEXT[s] }))} />
      </Form.Item>
      {(scope === 'competition' || scope === 'teams') && (
        <Form.Item name={['target', 'competitionId']} label="竞赛" rules={[{ required: true, message: '请选择竞赛' }]}>
          <Select showSearch optionFilterProp="label" placeholder="请选择竞赛" loading={competitions.isLoading} options={competitions.data} />
        </Form.Item>
      )}
      {scope === 'competition' && (
        <Row gutter={16}>
          <Col span={8}>
            <Form.Item name={['target', 'registerStatus']} label="报名状态">
              <Select allowClear placeholder="不限" options={stringOptions(REGISTER_STATUS_FILTER_TEXT)} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name={['target', 'payStatus']} label="缴费状态">
              <Select allowClear placeholder="不限" options={stringOptions(PAY_STATUS_FILTER_TEXT)} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name={['target', 'works']} label="作品提交">
              <Select allowClear placeholder="不限" options={stringOptions(WORKS_FILTER_TEXT)} />
            </Form.Item>
          </Col>
        </Row>
      )}
      {scope === 'users' && (
        <Form.Item
          name={['target', 'usernames']}
          label="接收人用户名"
          rules={[{ required: true, type: 'array', min: 1, message: '请填写接收人' }]}
          extra="输入用户名后回车；可粘贴以逗号、空格或换行分隔的多个用户名，一次最多500位"
        >
          <Select {...tags} placeholder="用户名" />
        </Form.Item>
      )}
      {scope === 'teams' && (
        <Form.Item
          name={['target', 'teamNos']}
          label="队伍编号"
          rules={[{ required: true, type: 'array', min: 1, message: '请填写队伍编号' }]}
          extra="输入队伍编号后回车；可粘贴以逗号、空格或换行分隔的多个编号，队伍的全体成员都会收到"
        >
          <Select {...tags} placeholder="队伍编号" />
        </Form.Item>
      )}
      <Form.Item name="channels" label="同时发送" extra="站内消息总会送达；邮件和短信只发给已验证邮箱或手机号、且未退订竞赛通知的用户。短信按服务商计费。">
        <Checkbox.Group
          options={[
            { value: 'email', label: '邮件' },
            { value: 'sms', label: '短信' },
          ]}
        />
      </Form.Item>
      <div style={{ marginTop: -8 }}>
        <RecipientCount target={targetOf(target)} channels={channels ?? []} />
        {targetOf(target) && (
          <div className="admin-hint" data-testid="later-recipients">
            {laterRecipientsText(targetOf(target)!)}
          </div>
        )}
      </div>
    </>
  );
}

/** A new draft, or edits to a draft or scheduled notice. */
function NoticeModal({ notice, platform, onClose }: { notice: Notice | null; platform: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const save = useListMutation(
    (body: NoticeBody) => (notice ? noticeApi.update(notice.id, body) : noticeApi.create(body)).catch((err: unknown) => Promise.reject(onTargetFields(err))),
    [noticeKeys.all],
    () => void message.success(notice ? '通知已保存' : '已保存为草稿'),
  );
  const initial: Partial<Values> = notice
    ? {
        kind: notice.kind as Values['kind'],
        title: notice.title,
        content: notice.content,
        target: { ...notice.target },
        channels: [...(notice.channels.email ? (['email'] as const) : []), ...(notice.channels.sms ? (['sms'] as const) : [])],
      }
    : { kind: NOTICE_KIND.system, target: { scope: defaultScope(NOTICE_KIND.system, platform) } };
  return (
    <FormModal<Values>
      title={notice ? `编辑通知：${notice.title}` : '新建通知'}
      name="notice"
      width={880}
      okText={notice ? '保存' : '保存草稿'}
      initialValues={initial}
      onSave={(v) =>
        save.mutateAsync({
          kind: v.kind,
          title: v.title.trim(),
          content: richTextOrNull(v.content),
          target: targetOf(v.target)!,
          channels: { email: Boolean(v.channels?.includes('email')), sms: Boolean(v.channels?.includes('sms')) },
        })
      }
      onClose={onClose}
    >
      <NoticeFields platform={platform} />
    </FormModal>
  );
}

/** How a notice's emails and texts stand: 已发送, 发送中, 失败 (with a hint of why failures happen). */
function ChannelState({ notice }: { notice: Notice }) {
  const parts = (['email', 'sms'] as const)
    .filter((c) => notice.channels[c])
    .map((c) => {
      const m = notice.messages[c];
      const name = c === 'email' ? '邮件' : '短信';
      if (notice.status !== NOTICE_STATUS.published) return <div key={c}>{name}：待发布</div>;
      return (
        <div key={c} data-testid={`notice-${c}`}>
          {name}：已发送 {m.sent}
          {m.queued ? `，发送中 ${m.queued}` : ''}
          {m.failed ? (
            <Tooltip title="地址无效、被对方拒收或服务商拒绝发送；原因见系统日志">
              <span style={{ color: '#cf1322' }}>，失败 {m.failed}</span>
            </Tooltip>
          ) : (
            ''
          )}
        </div>
      );
    });
  return parts.length ? <>{parts}</> : <span className="admin-hint">仅站内</span>;
}

/** Publishes a draft now or at a chosen time; a scheduled notice can be published now or moved. */
function PublishModal({ notice, onClose }: { notice: Notice; onClose: () => void }) {
  const { message } = App.useApp();
  type PublishValues = { when: 'now' | 'later'; publishAt?: Dayjs | null };
  const publish = useListMutation(
    (publishAt: string | null) => noticeApi.publish(notice.id, publishAt),
    [noticeKeys.all],
    (_, publishAt) => void message.success(publishAt ? `将于 ${formatMinute(publishAt)} 发布` : '通知已发布'),
  );
  const scheduled = notice.status === NOTICE_STATUS.scheduled && notice.publishAt;
  return (
    <FormModal<PublishValues>
      title={`发布：${notice.title}`}
      name="publish"
      okText="发布"
      initialValues={scheduled ? { when: 'later', publishAt: toPicker(notice.publishAt!) } : { when: 'now' }}
      onSave={(v) => publish.mutateAsync(v.when === 'later' && v.publishAt ? fromPicker(v.publishAt.second(0).millisecond(0)) : null)}
      onClose={onClose}
    >
      <Form.Item name="when" label="发布方式">
        <Radio.Group
          options={[
            { value: 'now', label: '立即发布' },
            { value: 'later', label: '定时发布' },
          ]}
        />
      </Form.Item>
      <Form.Item noStyle shouldUpdate={(a: PublishValues, b: PublishValues) => a.when !== b.when}>
        {({ getFieldValue }) =>
          getFieldValue('when') === 'later' && (
            <Form.Item
              name="publishAt"
              label="发布时间"
              rules={[
                { required: true, message: '请选择发布时间' },
                {
                  validator: async (_, value?: Dayjs | null) => {
                    if (value && !value.isAfter(sysTime())) throw new Error('发布时间须晚于现在');
                  },
                },
              ]}
            >
              <DateTimePicker disabledDate={(d) => d.isBefore(toPicker(sysTime().toISOString()), 'day')} />
            </Form.Item>
          )
        }
      </Form.Item>
      <Descriptions column={1} size="small">
        <Descriptions.Item label="发送对象">{targetSummary(notice.target, notice.competitionName)}</Descriptions.Item>
        <Descriptions.Item label="接收人数">
          <RecipientCount target={notice.target} channels={(['email', 'sms'] as const).filter((c) => notice.channels[c])} />
        </Descriptions.Item>
      </Descriptions>
    </FormModal>
  );
}

/** A published notice still being copied into its recipients' boxes (a large audience goes in batches). */
const delivering = (n: Notice) => n.status === NOTICE_STATUS.published && n.deliveredAt === null;

/**
 * A notice's state; a published one still being delivered says 「投递中」 with the boxes reached so far out of its
 * audience, as a bar and in numbers.
 */
function NoticeState({ notice }: { notice: Notice }) {
  const tag = <Tag color={STATUS_COLORS[notice.status]}>{NOTICE_STATUS_TEXT[notice.status]}</Tag>;
  if (!delivering(notice)) return tag;
  const percent = notice.recipients ? Math.min(99, Math.floor((notice.delivered / notice.recipients) * 100)) : 0;
  return (
    <div style={{ minWidth: 110 }}>
      {tag}
      <Progress percent={percent} size="small" status="active" aria-label="投递进度" />
      <span style={{ fontSize: 12, color: 'rgba(0,0,0,0.55)' }}>
        投递中 {notice.delivered}/{notice.recipients}
      </span>
    </div>
  );
}

/** While a notice on the page is being delivered, the list reloads every two seconds to show its progress. */
const DELIVERY_POLL_MS = 2000;

/** A notice as its recipients read it, with whom it went to. */
function ViewModal({ notice, onClose }: { notice: Notice; onClose: () => void }) {
  return (
    <Modal open title={notice.title} width={800} onCancel={onClose} footer={<Button onClick={onClose}>关闭</Button>}>
      <Descriptions column={2} size="small" style={{ marginBottom: 16 }}>
        <Descriptions.Item label="类型">{NOTICE_KIND_TEXT[notice.kind]}</Descriptions.Item>
        <Descriptions.Item label="状态">
          <NoticeState notice={notice} />
        </Descriptions.Item>
        <Descriptions.Item label="发送对象" span={2}>
          {targetSummary(notice.target, notice.competitionName)}
        </Descriptions.Item>
        {notice.status === NOTICE_STATUS.published && (
          <Descriptions.Item label="已读">
            {notice.reads} / {notice.recipients}
          </Descriptions.Item>
        )}
        {notice.source && <Descriptions.Item label="来源">{notice.source}</Descriptions.Item>}
      </Descriptions>
      <RichTextView html={notice.content} />
    </Modal>
  );
}

function publishTime(n: Notice): string {
  if (n.status === NOTICE_STATUS.published && n.publishedAt) return formatMinute(n.publishedAt);
  if (n.status === NOTICE_STATUS.scheduled && n.publishAt) return `定时 ${formatMinute(n.publishAt)}`;
  return '';
}

/** `message/notice`: system notices and personal messages; write a draft, choose whom it reaches, publish or schedule. */
export default function NoticePage() {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const { has } = usePermissions();
  const canEdit = has(ACTION_CODES.noticeEdit);
  // Writing to every user or to named users is the platform's: the server says whether the caller is (its user info).
  const platform = useIsPlatform();
  const list = usePagedList(useListState<NoticeListParams>(), {
    queryKey: noticeKeys.list,
    queryFn: noticeApi.list,
    emptyText: '暂无通知',
    refetchInterval: (page) => (page?.list.some(delivering) ? DELIVERY_POLL_MS : false),
  });
  const [editing, setEditing] = useState<Notice | null | undefined>(undefined);
  const [publishing, setPublishing] = useState<Notice | null>(null);
  const [viewing, setViewing] = useState<Notice | null>(null);
  const removal = useListMutation(noticeApi.remove, [noticeKeys.all], () => void message.success('通知已删除'));

  const remove = (n: Notice) =>
    confirm(
      n.status === NOTICE_STATUS.published
        ? `确定删除已发布的通知“${n.title}”吗？删除后它将从所有接收人的消息中消失。`
        : n.status === NOTICE_STATUS.scheduled
          ? `确定删除定时通知“${n.title}”吗？删除后它不会再发布。`
          : `确定删除草稿“${n.title}”吗？`,
      () => removal.mutateAsync(n.id),
      { danger: true },
    );

  return (
    <Card
      title="通知管理"
      extra={
        canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
            新建通知
          </Button>
        )
      }
    >
      <FilterForm<Omit<NoticeListParams, 'page' | 'limit'>> withCompetition={false} keywordPlaceholder="标题" onSearch={list.search}>
        <Form.Item name="kind" label="类型">
          <Select allowClear placeholder="全部" style={{ width: 120 }} options={textOptions(NOTICE_KIND_TEXT)} />
        </Form.Item>
        <Form.Item name="status" label="状态">
          <Select allowClear placeholder="全部" style={{ width: 120 }} options={textOptions(NOTICE_STATUS_TEXT)} />
        </Form.Item>
      </FilterForm>
      <Table<Notice>
        {...list.table}
        scroll={{ x: 1500 }}
        columns={[
          {
            title: '标题',
            width: 260,
            render: (_, n) => (
              <Space size={4}>
                <ActionLink onClick={() => setViewing(n)}>{n.title}</ActionLink>
                {n.source && (
                  <Tooltip title={n.source}>
                    <Tag color="purple">系统自动</Tag>
                  </Tooltip>
                )}
              </Space>
            ),
          },
          { title: '类型', width: 100, render: (_, n) => NOTICE_KIND_TEXT[n.kind] },
          { title: '发送对象', width: 280, ellipsis: true, render: (_, n) => targetSummary(n.target, n.competitionName) },
          { title: '状态', width: 150, render: (_, n) => <NoticeState notice={n} /> },
          { title: '发布时间', width: 170, render: (_, n) => publishTime(n) },
          { title: '接收人数', width: 90, render: (_, n) => (n.status === NOTICE_STATUS.published ? n.recipients : '') },
          { title: '已读', width: 80, render: (_, n) => (n.status === NOTICE_STATUS.published ? n.reads : '') },
          { title: '邮件 / 短信', width: 150, render: (_, n) => <ChannelState notice={n} /> },
          { title: '作者', dataIndex: 'author', width: 110 },
          {
            title: '操作',
            width: 150,
            fixed: 'right',
            render: (_, n) => {
              const pending = n.status === NOTICE_STATUS.draft || n.status === NOTICE_STATUS.scheduled;
              return (
                <Space>
                  {canEdit && pending && <ActionLink onClick={() => setEditing(n)}>编辑</ActionLink>}
                  {canEdit && pending && <ActionLink onClick={() => setPublishing(n)}>发布</ActionLink>}
                  {canEdit && <ActionLink onClick={() => remove(n)}>删除</ActionLink>}
                  {!canEdit && <ActionLink onClick={() => setViewing(n)}>查看</ActionLink>}
                </Space>
              );
            },
          },
        ]}
      />
      {editing !== undefined && <NoticeModal notice={editing} platform={platform} onClose={() => setEditing(undefined)} />}
      {publishing && <PublishModal notice={publishing} onClose={() => setPublishing(null)} />}
      {viewing && <ViewModal notice={viewing} onClose={() => setViewing(null)} />}
    </Card>
  );
}
