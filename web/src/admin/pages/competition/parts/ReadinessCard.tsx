import { EDITOR_TABS, isGap, type EditorTab, type Readiness, type ReadinessItem } from '@contest/shared';
import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import { Alert, Button, Card, Collapse, Skeleton, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';

/** ✓ met, ✗ a gap that refuses the submission for audit, ! advice. */
function ItemIcon({ item }: { item: ReadinessItem }) {
  if (item.ok) return <CheckCircleFilled style={{ color: '#52c41a' }} aria-label="已完成" />;
  if (item.level === 'blocking') return <CloseCircleFilled style={{ color: '#ff4d4f' }} aria-label="必须补齐" />;
  return <ExclamationCircleFilled style={{ color: '#faad14' }} aria-label="建议" />;
}

function ItemRow({ item, onFix, onRecheck }: { item: ReadinessItem; onFix?: (tab: EditorTab) => void; onRecheck?: (key: 'dates' | 'fee') => void }) {
  return (
    <div
      data-testid="readiness-item"
      data-key={item.key}
      data-ok={item.ok}
      style={{ display: 'flex', gap: 10, padding: '8px 0', borderBottom: '1px solid #f0f0f0' }}
    >
      <span style={{ paddingTop: 2 }}>
        <ItemIcon item={item} />
      </span>
      <div style={{ flex: 1, minWidth: 0, display: 'flex', flexWrap: 'wrap', columnGap: 16, rowGap: 2, alignItems: 'baseline' }}>
        <div style={{ flex: '1 1 320px', minWidth: 0 }}>
          <Space size={6} wrap>
            <Typography.Text strong>{item.label}</Typography.Text>
            {!item.ok && (item.level === 'blocking' ? <Tag color="error">必须补齐</Tag> : <Tag color="warning">建议</Tag>)}
          </Space>
          <div>
            <Typography.Text type={item.ok ? 'secondary' : undefined}>{item.detail}</Typography.Text>
          </div>
        </div>
        {!item.ok && item.recheck && onRecheck && (
          <Button size="small" style={{ flex: 'none' }} onClick={() => onRecheck(item.recheck!)}>
            已复核
          </Button>
        )}
        {!item.ok &&
          (onFix ? (
            <Button type="link" size="small" style={{ padding: 0, flex: 'none' }} onClick={() => onFix(item.fix.tab)}>
              去「{EDITOR_TABS[item.fix.tab]}」修改
            </Button>
          ) : (
            <Typography.Text type="secondary" style={{ fontSize: 12, flex: '0 1 320px' }}>
              {item.fix.text}
            </Typography.Text>
          ))}
      </div>
    </div>
  );
}

/** 「还有 2 项必须补齐才能提交审核」, or that nothing blocks: what the submit button and the card's head say. */
export function readinessSummary(r: Readiness): string {
  const gaps = r.items.filter(isGap);
  return gaps.length ? `还有 ${gaps.length} 项必须补齐才能提交审核：${gaps.map((g) => g.label).join('、')}` : '必需项已齐全，可以提交审核';
}

/**
 * The readiness checklist of a competition: what still blocks the audit first, then advice, then what is done (folded).
 * With `onFix`, each open item switches to the editor's tab that fixes it; without, it says where in words. `refusal`
 * is the server's refusal of a submission, shown above the list until closed.
 */
export function ReadinessCard({
  readiness,
  loading,
  onFix,
  refusal,
  onCloseRefusal,
  title = '上线准备',
  extra,
  onRecheck,
}: {
  readiness: Readiness | undefined | null;
  loading?: boolean;
  onFix?: (tab: EditorTab) => void;
  refusal?: string | null;
  onCloseRefusal?: () => void;
  title?: string;
  extra?: ReactNode;
  /** A copied edition's organiser says an item (dates, fee) is rechecked. */
  onRecheck?: (key: 'dates' | 'fee') => void;
}) {
  if (loading)
    return (
      <Card size="small" title={title}>
        <Skeleton active paragraph={{ rows: 3 }} />
      </Card>
    );
  if (!readiness) return null;
  const gaps = readiness.items.filter(isGap);
  const advice = readiness.items.filter((i) => !i.ok && i.level === 'advisory');
  const done = readiness.items.filter((i) => i.ok);
  return (
    <Card
      size="small"
      data-testid="readiness"
      title={
        <Space size={8} wrap>
          <span>{title}</span>
          {gaps.length ? <Tag color="error">还有 {gaps.length} 项必须补齐</Tag> : <Tag color="success">必需项已齐全</Tag>}
          {advice.length > 0 && <Tag color="warning">{advice.length} 条建议</Tag>}
        </Space>
      }
      extra={extra}
      styles={{ header: { flexWrap: 'wrap' } }}
    >
      {refusal && <Alert type="error" showIcon closable onClose={onCloseRefusal} style={{ marginBottom: 8 }} message="未能提交审核" description={refusal} />}
      {gaps.length === 0 && advice.length === 0 && <Typography.Paragraph type="secondary">各项检查均已完成。</Typography.Paragraph>}
      {[...gaps, ...advice].map((i) => (
        <ItemRow key={i.key} item={i} onFix={onFix} onRecheck={onRecheck} />
      ))}
      {done.length > 0 && (
        <Collapse
          ghost
          size="small"
          style={{ marginTop: 4 }}
          items={[{ key: 'done', label: `已完成的检查（${done.length}）`, children: done.map((i) => <ItemRow key={i.key} item={i} />) }]}
        />
      )}
    </Card>
  );
}
