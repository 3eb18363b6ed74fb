import { MAX_SELECTED, TEST_STATUS, TEST_STATUS_TEXT, formatSize, formatTestScore, queueText, type TestSubmission } from '@contest/shared';
import { Grid, List, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { formatMinute } from '#src/common/time.ts';

const STATUS_COLORS: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'success', 3: 'error' };

/** The scorer's reasons, one problem a line (「第3行：编号“u0”重复」…), as the server joins them with 「；」. */
function Problems({ reason }: { reason: string | null }) {
  if (!reason) return null;
  return (
    <ul data-testid="test-problems" style={{ margin: 0, paddingInlineStart: 16 }}>
      {reason.split('；').map((line, i) => (
        <li key={i}>
          <Typography.Text type="danger">{line}</Typography.Text>
        </li>
      ))}
    </ul>
  );
}

/** Breaks a long user name where it must, not a size in the middle. */
const NOTE = { color: 'rgba(0, 0, 0, 0.45)', fontSize: 13, overflowWrap: 'anywhere' } as const;

const statusTag = (s: TestSubmission) =>
  s.cancelReason !== null ? <Tag color="error">成绩已取消</Tag> : <Tag color={STATUS_COLORS[s.status]}>{TEST_STATUS_TEXT[s.status]}</Tag>;

/** The organiser's reason for cancelling the submission's score: it counts on no board. */
const CancelNote = ({ s }: { s: TestSubmission }) =>
  s.cancelReason !== null ? (
    <div data-testid="cancel-note" style={{ ...NOTE, color: '#cf1322' }}>
      主办方已取消该提交的成绩，不计入排行榜。原因：{s.cancelReason}
    </div>
  ) : null;

/** Where a waiting submission stands in the scoring queue, and about how long it will wait. */
const QueueNote = ({ s }: { s: TestSubmission }) =>
  s.queue ? (
    <span data-testid="test-queue" style={NOTE}>
      {queueText(s.queue)}
    </span>
  ) : null;

/**
 * The team's submission history for a question, newest first: file, time, who, scores, status and the problems of a
 * refused file. On a phone each submission is a card; the table's columns would not fit.
 */
export function TestHistory({
  list,
  loading,
  onSelect,
}: {
  list: TestSubmission[] | undefined;
  loading: boolean;
  onSelect: (s: TestSubmission, selected: boolean) => void;
}) {
  const phone = Grid.useBreakpoint().md === false;
  // The limit is said before a third is tried: with two chosen, the others' switches are off until one is let go.
  const full = (list ?? []).filter((s) => s.selected).length >= MAX_SELECTED;
  const select = (s: TestSubmission) =>
    s.status === TEST_STATUS.scored &&
    s.cancelReason === null && (
      <Tooltip title={full && !s.selected ? `最多选择${MAX_SELECTED}个提交作为最终结果，请先取消一个` : undefined}>
        <Switch
          size="small"
          checked={s.selected}
          disabled={full && !s.selected}
          aria-label={`将 ${s.fileName} 作为最终结果`}
          onChange={(on) => onSelect(s, on)}
        />
      </Tooltip>
    );
  if (phone) {
    return (
      <List<TestSubmission>
        loading={loading}
        dataSource={list}
        locale={{ emptyText: '暂无提交' }}
        renderItem={(s) => (
          <List.Item key={s.id} className="order-card" data-testid="test-card">
            <div className="order-card-head">
              <span className="order-card-title">{s.fileName}</span>
              {statusTag(s)}
            </div>
            <div className="order-card-row">
              <span>
                公榜 <strong data-testid="public-score">{formatTestScore(s.publicScore)}</strong>
              </span>
              <span>私榜 {formatTestScore(s.privateScore)}</span>
            </div>
            <div style={NOTE}>
              {formatMinute(s.createdAt)} · {s.username} · {formatSize(s.size)}
            </div>
            <QueueNote s={s} />
            <Problems reason={s.reason} />
            <CancelNote s={s} />
            {s.status === TEST_STATUS.scored && s.cancelReason === null && <div className="order-card-action">作为最终结果 {select(s)}</div>}
          </List.Item>
        )}
      />
    );
  }
  return (
    <Table<TestSubmission>
      rowKey="id"
      size="small"
      loading={loading}
      dataSource={list}
      pagination={list && list.length > 20 ? { pageSize: 20, size: 'small', showSizeChanger: false } : false}
      tableLayout="fixed"
      locale={{ emptyText: '暂无提交' }}
      columns={[
        {
          title: '文件',
          render: (_, s) => (
            <>
              <Typography.Text ellipsis={{ tooltip: s.fileName }} style={{ display: 'block' }}>
                {s.fileName}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {s.username} · {formatSize(s.size)}
              </Typography.Text>
            </>
          ),
        },
        { title: '提交时间', width: 150, render: (_, s) => formatMinute(s.createdAt) },
        { title: '状态', width: 84, render: (_, s) => statusTag(s) },
        { title: '公榜成绩', width: 100, render: (_, s) => <span data-testid="public-score">{formatTestScore(s.publicScore)}</span> },
        { title: '私榜成绩', width: 100, render: (_, s) => formatTestScore(s.privateScore) },
        {
          title: '说明',
          render: (_, s) => (
            <>
              <QueueNote s={s} />
              <Problems reason={s.reason} />
              <CancelNote s={s} />
            </>
          ),
        },
        { title: '作为最终结果', width: 104, render: (_, s) => select(s) },
      ]}
    />
  );
}
