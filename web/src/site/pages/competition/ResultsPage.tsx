import { PUBLICITY_STATE_TEXT, type PublicResults, type ResultLine } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Form, Input, Modal, Result, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { publicityApi, publicityKeys } from '#src/api/publicity.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { DocumentField } from '#src/common/DocumentUpload.tsx';
import { HttpError, goLogin } from '#src/common/http.ts';
import { formatMinute } from '#src/common/time.ts';

const STATE_COLOR = { none: 'default', before: 'blue', open: 'orange', closed: 'green' } as const;

/** An objection to one line: a reason and, if the objector has one, a document as evidence. */
function ObjectionModal({ competitionId, line, title, onClose }: { competitionId: number; line: ResultLine; title: string; onClose: () => void }) {
  const [form] = Form.useForm<{ reason: string; attachment?: string | null }>();
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState(false);
  async function submit() {
    let v;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setSending(true);
    setError(null);
    try {
      await publicityApi.object(competitionId, { questionId: line.questionId, teamId: line.teamId, reason: v.reason.trim(), attachment: v.attachment ?? null });
      setDone(true);
    } catch (err) {
      setError(err instanceof HttpError ? err.message : '提交失败，请稍后重试');
    } finally {
      setSending(false);
    }
  }
  if (done)
    return (
      <Modal open title="提出异议" onCancel={onClose} footer={<Button onClick={onClose}>关闭</Button>}>
        <Result status="success" title="异议已提交" subTitle="主办方答复后将以站内消息通知您" />
      </Modal>
    );
  return (
    <Modal
      open
      title={`提出异议：${line.teamName}（${title} · ${line.awardName}）`}
      okText="提交异议"
      cancelText="取消"
      confirmLoading={sending}
      onOk={submit}
      onCancel={onClose}
      maskClosable={false}
    >
      <Typography.Paragraph type="secondary">异议须实名提出，主办方将看到您的实名，并在答复后通知您。请写明事实和理由，可附证明材料。</Typography.Paragraph>
      <Form form={form} layout="vertical" name="objection">
        <Form.Item
          name="reason"
          label="异议理由"
          rules={[
            { required: true, whitespace: true, message: '请输入异议理由' },
            { max: 1000, message: '异议理由不能超过1000个字符' },
          ]}
        >
          <Input.TextArea rows={5} maxLength={1000} showCount />
        </Form.Item>
        <Form.Item name="attachment" label="证明材料（选填）">
          <DocumentField purpose="objection" label="证明材料" />
        </Form.Item>
      </Form>
      {error && (
        <Alert type="error" showIcon message={error} action={error.includes('实名认证') ? <Link to="/userCenter/realName">去实名认证</Link> : undefined} />
      )}
    </Modal>
  );
}

function QuestionResults({ r, q, onObject }: { r: PublicResults; q: PublicResults['questions'][number]; onObject: (l: ResultLine) => void }) {
  return (
    <Card title={q.title} style={{ marginBottom: 16 }} data-testid="results-question">
      {q.groups.map((g) => (
        <div key={g.group ?? ''} style={{ marginBottom: 12 }}>
          {g.group && <Typography.Title level={5}>{g.group}</Typography.Title>}
          <Table<ResultLine>
            rowKey="teamId"
            size="small"
            pagination={false}
            dataSource={g.lines}
            scroll={{ x: 'max-content' }}
            columns={[
              { title: '奖项', dataIndex: 'awardName', width: 100 },
              { title: '队伍', dataIndex: 'teamName' },
              { title: '学校', dataIndex: 'schoolName', render: (v: string | null) => v ?? '—' },
              ...(r.state === 'closed'
                ? [
                    {
                      title: '证书查验',
                      key: 'certs',
                      render: (_: unknown, l: ResultLine) =>
                        l.certNos.length ? (
                          <Space direction="vertical" size={0}>
                            {l.certNos.map((no) => (
                              <Link key={no} to={`/certificate/verify/${encodeURIComponent(no)}`}>
                                {no}
                              </Link>
                            ))}
                          </Space>
                        ) : (
                          '—'
                        ),
                    },
                  ]
                : []),
              ...(r.state === 'open'
                ? [
                    {
                      title: '异议',
                      key: 'object',
                      width: 100,
                      render: (_: unknown, l: ResultLine) => (
                        <Button size="small" onClick={() => onObject(l)}>
                          提出异议
                        </Button>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </div>
      ))}
    </Card>
  );
}

/** `/results/:competitionId`: a competition's 公示 — the provisional list during the 公示期, the final list after it. */
export default function ResultsPage() {
  const { competitionId } = useParams();
  const valid = /^\d+$/.test(competitionId ?? '');
  const id = Number(competitionId);
  const user = useCurrentUser();
  const results = useQuery({ queryKey: publicityKeys.results(id), queryFn: () => publicityApi.results(id), enabled: valid, retry: false });
  const [objecting, setObjecting] = useState<{ line: ResultLine; title: string } | null>(null);
  if (!valid) return <Navigate to="/404" replace />;
  if (results.isLoading) return <Spin style={{ display: 'block', margin: '120px auto' }} />;
  if (!results.data) {
    if (results.error instanceof HttpError && results.error.status !== 404)
      return (
        <Result status="error" title="获奖名单加载失败" subTitle={results.error.message} extra={<Button onClick={() => void results.refetch()}>重试</Button>} />
      );
    return <Result status="404" title="竞赛不存在或尚未上线" extra={<Link to="/competitionList">返回竞赛列表</Link>} />;
  }
  const r = results.data;
  const window = r.start && r.end ? `公示期：${formatMinute(r.start)} 至 ${formatMinute(r.end)}` : null;
  return (
    <div style={{ maxWidth: 1100, margin: '0 auto' }}>
      <Card style={{ marginBottom: 16 }}>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {r.competitionName} · 获奖名单 <Tag color={STATE_COLOR[r.state]}>{r.state === 'closed' ? '最终名单' : PUBLICITY_STATE_TEXT[r.state]}</Tag>
        </Typography.Title>
        <Space wrap split="·">
          <span>{r.orgName}</span>
          {window && <span>{window}</span>}
          <Link to={`/competition/${r.competitionId}/introduce`}>返回竞赛</Link>
        </Space>
        {r.state === 'open' && (
          <Alert
            style={{ marginTop: 12 }}
            type="warning"
            showIcon
            message="公示期内，对名单有异议的，可点该行的“提出异议”实名提出（须登录并完成实名认证）；公示期结束后名单为最终结果。"
          />
        )}
      </Card>
      {r.state === 'none' && <Result status="info" title="成绩尚未公示" subTitle="主办方公布获奖名单后将在此公示" />}
      {r.state === 'before' && <Result status="info" title={`成绩将于 ${formatMinute(r.start!)} 开始公示`} />}
      {(r.state === 'open' || r.state === 'closed') && !r.questions.length && <Empty description="暂无获奖名单" style={{ padding: 48 }} />}
      {r.questions.map((q) => (
        <QuestionResults key={q.questionId} r={r} q={q} onObject={(line) => (user.data ? setObjecting({ line, title: q.title }) : goLogin())} />
      ))}
      {objecting && <ObjectionModal competitionId={r.competitionId} line={objecting.line} title={objecting.title} onClose={() => setObjecting(null)} />}
    </div>
  );
}
