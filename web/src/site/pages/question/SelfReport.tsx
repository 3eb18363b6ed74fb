import { formatShare } from '@contest/shared';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, InputNumber, Typography } from 'antd';
import { useRef, useState } from 'react';
import { similarityApi, similarityKeys } from '#src/api/similarity.ts';
import { formatMinute } from '#src/common/time.ts';

/**
 * The team's own 查重 report (知网, 维普…) with its works, and the rate it declares (issue 37): optional, a PDF, replaced
 * by the next one while works may be submitted. The organiser reads it beside the platform's own 查重.
 */
export function SelfReport({ questionId, open }: { questionId: number; open: boolean }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const report = useQuery({ queryKey: similarityKeys.report(questionId), queryFn: () => similarityApi.myReport(questionId) });
  const [rate, setRate] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function send(file: File) {
    if (!/\.pdf$/i.test(file.name)) return void message.error('请上传PDF格式的查重报告');
    if (file.size > 20 * 1024 * 1024) return void message.error('查重报告不能超过20MB');
    setSending(true);
    try {
      client.setQueryData(similarityKeys.report(questionId), await similarityApi.uploadReport(questionId, file, rate!));
      setRate(null);
      void message.success('查重报告已上传');
    } catch (err) {
      void message.error(err instanceof Error ? err.message : '上传失败', 8);
    } finally {
      setSending(false);
    }
  }

  const r = report.data;
  return (
    <div style={{ marginTop: 24 }} data-testid="self-report">
      <Typography.Title level={5}>查重报告（选填）</Typography.Title>
      <Typography.Paragraph type="secondary">
        如已在知网、维普等平台自行查重，可上传查重报告（PDF）并填写查重率，供组织方参考；平台也会对各队作品进行查重。
      </Typography.Paragraph>
      {r ? (
        <Typography.Paragraph>
          已上传：{r.fileName}，自报查重率 {formatShare(r.declaredRate)}（{formatMinute(r.createdAt)}）
        </Typography.Paragraph>
      ) : (
        !report.isLoading && <Typography.Paragraph type="secondary">尚未上传</Typography.Paragraph>
      )}
      {open && (
        <Flex wrap gap={8} align="center">
          <InputNumber
            aria-label="查重率"
            placeholder="查重率"
            min={0}
            max={100}
            precision={1}
            value={rate}
            onChange={(v) => setRate(v)}
            addonAfter="%"
            style={{ width: 150 }}
          />
          <input
            ref={input}
            type="file"
            hidden
            accept=".pdf"
            data-testid="report-input"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void send(file);
            }}
          />
          <Button icon={<UploadOutlined />} loading={sending} disabled={rate === null} onClick={() => input.current?.click()}>
            {r ? '重新上传报告' : '上传查重报告'}
          </Button>
          {rate === null && <Typography.Text type="secondary">请先填写查重率</Typography.Text>}
        </Flex>
      )}
    </div>
  );
}
