import { EMBED_PATHS, PUBLICITY_STATE_TEXT, embedSnippet, scoredAutomatically, type Publicity } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Collapse, Form, Select, Skeleton, Space, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { publicityApi, publicityKeys } from '#src/api/publicity.ts';
import { fromPickerOrNull, toPickerOrNull } from '#src/common/beijing.ts';
import { showFieldErrors } from '#src/common/forms.ts';
import { DateTimeRangePicker } from '#src/admin/components/DateTimePicker.tsx';
import { useCompetitionQuestions } from './AuditQuestions.tsx';

interface Values {
  window: [Dayjs | null, Dayjs | null] | null;
  embedOrigins: string[];
}

const STATE_COLOR = { none: 'default', before: 'blue', open: 'orange', closed: 'green' } as const;

/** A snippet to paste, and the same data as JSON and CSV. */
function Embed({ title, path }: { title: string; path: string }) {
  const origin = window.location.origin;
  const snippet = embedSnippet(origin, path, title);
  return (
    <div data-testid="embed-snippet" style={{ minWidth: 0 }}>
      <Space wrap size={12} style={{ marginBottom: 4 }}>
        <a href={path} target="_blank" rel="noopener noreferrer">
          预览
        </a>
        <a href={`${path}?format=json`} target="_blank" rel="noopener noreferrer">
          JSON
        </a>
        <a href={`${path}?format=csv`} target="_blank" rel="noopener noreferrer">
          CSV
        </a>
      </Space>
      <Typography.Paragraph copyable={{ text: snippet, tooltips: ['复制嵌入代码', '已复制'] }} style={{ marginBottom: 0 }}>
        <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12, margin: 0, maxHeight: 160, overflow: 'auto' }}>{snippet}</pre>
      </Typography.Paragraph>
    </div>
  );
}

/**
 * 公示与嵌入: the competition's 公示期 (the public award list, open for objections during it, final after it), the sites
 * that may frame its boards and results, and the code each of them pastes.
 */
export function PublicityPanel({ competitionId, editable }: { competitionId: number; editable: boolean }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const settings = useQuery({ queryKey: publicityKeys.settings(competitionId), queryFn: () => publicityApi.settings(competitionId) });
  const questions = useCompetitionQuestions(competitionId);
  if (settings.isLoading || !settings.data) return <Skeleton active paragraph={{ rows: 3 }} />;
  const p: Publicity = settings.data;

  async function save(v: Values) {
    try {
      const saved = await publicityApi.save(competitionId, {
        start: fromPickerOrNull(v.window?.[0]),
        end: fromPickerOrNull(v.window?.[1]),
        embedOrigins: v.embedOrigins ?? [],
      });
      client.setQueryData(publicityKeys.settings(competitionId), saved);
      void client.invalidateQueries({ queryKey: publicityKeys.results(competitionId) });
      void message.success('公示设置已保存');
    } catch (err) {
      showFieldErrors(form, err);
      // The origins' errors are by position: shown on the list.
      const fields = (err as { fields?: Record<string, string> }).fields ?? {};
      const originError = Object.entries(fields).find(([k]) => k.startsWith('embedOrigins'));
      if (originError) form.setFields([{ name: 'embedOrigins', errors: [originError[1]] }]);
      const windowError = fields.start ?? fields.end;
      if (windowError) form.setFields([{ name: 'window', errors: [windowError] }]);
    }
  }

  const boards = (questions.data ?? []).filter((q) => q.reviewed && scoredAutomatically(q.judging));
  return (
    <div data-testid="publicity-panel">
      <Space wrap style={{ marginBottom: 12 }}>
        <Tag color={STATE_COLOR[p.state]}>{PUBLICITY_STATE_TEXT[p.state]}</Tag>
        <a href={`/results/${competitionId}`} target="_blank" rel="noopener noreferrer">
          查看公示页
        </a>
      </Space>
      <Form<Values>
        form={form}
        name="publicity"
        layout="vertical"
        disabled={!editable}
        initialValues={{ window: p.start ? [toPickerOrNull(p.start), toPickerOrNull(p.end)] : null, embedOrigins: p.embedOrigins }}
        onFinish={save}
        style={{ maxWidth: 720 }}
      >
        <Form.Item
          name="window"
          label="公示期"
          extra="公示期内，获奖名单（赛题、组别、队伍、学校、奖项）公开，完成实名认证的用户可对名单提出异议，异议进入各赛题的「成绩申诉与公示异议」；公示期结束后为最终名单，附证书编号供查验。名单只含已确认成绩并已评奖的赛题，不含任何个人信息。"
        >
          <DateTimeRangePicker allowEmpty={[false, false]} placeholder={['公示开始', '公示结束']} style={{ width: '100%', maxWidth: 420 }} />
        </Form.Item>
        <Form.Item
          name="embedOrigins"
          label="允许嵌入的网站"
          extra="填写网站的源（协议与域名，如 https://www.example.edu.cn），回车添加。只有这些网站能以 iframe 嵌入本竞赛的排行榜和获奖名单；不填则只能在本平台内显示。"
        >
          <Select mode="tags" tokenSeparators={[' ', ',']} open={false} suffixIcon={null} placeholder="https://www.example.edu.cn" />
        </Form.Item>
        {editable && (
          <Button type="primary" htmlType="submit">
            保存公示设置
          </Button>
        )}
      </Form>
      <Typography.Title level={5} style={{ marginTop: 20 }}>
        嵌入代码
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        把代码粘贴到允许嵌入的网站页面中：框架会按内容自动调整高度。排行榜与平台上的公开榜一致（私榜在公布后显示）；同样的数据可按 JSON 或 CSV 读取。
      </Typography.Paragraph>
      <Collapse
        size="small"
        items={[
          { key: 'results', label: '获奖名单（公示）', children: <Embed title="获奖名单" path={EMBED_PATHS.results(competitionId)} /> },
          ...boards.map((q) => ({
            key: `q${q.id}`,
            label: `排行榜：${q.title}`,
            children: <Embed title={`${q.title} 排行榜`} path={EMBED_PATHS.leaderboard(q.id)} />,
          })),
        ]}
      />
    </div>
  );
}
