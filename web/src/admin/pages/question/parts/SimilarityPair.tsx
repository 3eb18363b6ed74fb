import { CODE_LANGUAGE_TEXT, formatShare, type SimilarityPair } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Grid, Modal, Result, Row, Skeleton, Space, Typography } from 'antd';
import { Fragment, useRef, useState, type ReactNode } from 'react';
import { similarityApi, similarityKeys } from '#src/api/similarity.ts';

type Side = SimilarityPair['a'];

/** A text with its shared passages marked, each mark numbered for the 上一处 / 下一处 buttons. */
function marked(side: Side): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  side.passages.forEach(([start, end], i) => {
    if (start > at) out.push(<Fragment key={`t${i}`}>{side.text.slice(at, start)}</Fragment>);
    out.push(
      <mark key={`m${i}`} data-passage={i} style={{ background: '#ffe58f', padding: 0 }}>
        {side.text.slice(Math.max(start, at), end)}
      </mark>,
    );
    at = Math.max(at, end);
  });
  if (at < side.text.length) out.push(<Fragment key="end">{side.text.slice(at)}</Fragment>);
  return out;
}

function TextSide({ side, height, code }: { side: Side; height: string; code: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(-1);
  const count = side.passages.length;
  const go = (step: number) => {
    const next = (current + step + count) % count;
    setCurrent(next);
    const mark = box.current?.querySelector<HTMLElement>(`[data-passage="${next}"]`);
    // The box is positioned: a mark's offsetTop is measured from the box's top.
    if (mark && box.current) box.current.scrollTo({ top: Math.max(0, mark.offsetTop - 40), behavior: 'smooth' });
  };
  return (
    <Card
      size="small"
      title={
        <Space direction="vertical" size={0} style={{ whiteSpace: 'normal' }}>
          <span>
            {side.teamName}（{side.teamNo}）
          </span>
          <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
            {side.label} · 相同部分占 {formatShare(side.share)} · {count} 处
          </Typography.Text>
        </Space>
      }
      extra={
        count > 0 && (
          <Space size={4}>
            <Button size="small" onClick={() => go(-1)}>
              上一处
            </Button>
            <Button size="small" onClick={() => go(1)}>
              下一处
            </Button>
          </Space>
        )
      }
    >
      <div
        ref={box}
        style={{
          height,
          overflowY: 'auto',
          whiteSpace: 'pre-wrap',
          lineHeight: code ? 1.5 : 1.8,
          position: 'relative',
          fontFamily: code ? 'monospace' : undefined,
        }}
        data-testid="pair-text"
      >
        {side.text ? marked(side) : <Typography.Text type="secondary">没有读取到文字</Typography.Text>}
      </div>
    </Card>
  );
}

/** Two works side by side, the passages they share highlighted in each (issue 37). */
export function PairModal({ pairId, onClose }: { pairId: number; onClose: () => void }) {
  const pair = useQuery({ queryKey: similarityKeys.pair(pairId), queryFn: () => similarityApi.pair(pairId) });
  const phone = Grid.useBreakpoint().md === false;
  // On a phone the two texts stand one above the other, each half the screen's height.
  const height = phone ? '38vh' : '65vh';
  return (
    <Modal
      open
      title={pair.data?.kind === 'code' ? `代码对比（${CODE_LANGUAGE_TEXT[pair.data.language ?? ''] ?? pair.data.language}）` : '作品对比'}
      width={phone ? '100%' : 1280}
      style={phone ? { top: 0, maxWidth: '100vw', padding: 0 } : undefined}
      footer={null}
      onCancel={onClose}
    >
      {pair.data ? (
        <Row gutter={[12, 12]}>
          <Col xs={24} md={12}>
            <TextSide side={pair.data.a} height={height} code={pair.data.kind === 'code'} />
          </Col>
          <Col xs={24} md={12}>
            <TextSide side={pair.data.b} height={height} code={pair.data.kind === 'code'} />
          </Col>
        </Row>
      ) : pair.isError ? (
        <Result status="warning" title="比对结果读取失败" subTitle="结果可能已随重新查重更新，请关闭后刷新列表再试" />
      ) : (
        <Skeleton active paragraph={{ rows: 10 }} />
      )}
    </Modal>
  );
}
