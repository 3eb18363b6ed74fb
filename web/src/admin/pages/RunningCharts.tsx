import type { RunningCompetition } from '@contest/shared';
import { Card, Col, Progress, Row, Typography } from 'antd';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { Link } from 'react-router';

// Only the pieces the home page draws: this module is loaded on its own, after the to-do list has shown.
echarts.use([BarChart, LineChart, GridComponent, TooltipComponent, SVGRenderer]);

const FIGURES = ['报名', '已通过', '已缴费', '提交作品'] as const;
const COLORS = ['#1890ff', '#52c41a', '#faad14', '#722ed1'];

const CAPTION = { display: 'block', marginTop: 8 } as const;

const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 100) : 0);

/** Registrations, approved, paid and submitted, as one small bar chart. */
function figuresOption(c: RunningCompetition) {
  const values = [c.registrations, c.approved, c.paid, c.submissions];
  return {
    animation: false,
    grid: { left: 64, right: 36, top: 4, bottom: 4 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'value', show: false, max: Math.max(1, ...values) },
    yAxis: { type: 'category', inverse: true, data: [...FIGURES], axisTick: { show: false }, axisLine: { show: false } },
    series: [
      {
        type: 'bar',
        barWidth: 12,
        label: { show: true, position: 'right' },
        data: values.map((value, i) => ({ value, itemStyle: { color: COLORS[i], borderRadius: [0, 3, 3, 0] } })),
      },
    ],
  };
}

/** The last days' registrations as a small trend line. */
function trendOption(c: RunningCompetition, days: string[]) {
  return {
    animation: false,
    grid: { left: 28, right: 8, top: 8, bottom: 20 },
    tooltip: { trigger: 'axis', formatter: (p: { name: string; value: number }[]) => `${p[0]!.name}<br/>新增报名 ${p[0]!.value}` },
    xAxis: {
      type: 'category',
      data: days.map((d) => d.slice(5)),
      boundaryGap: false,
      axisLabel: { interval: 'auto', fontSize: 10 },
      axisTick: { show: false },
    },
    yAxis: { type: 'value', minInterval: 1, splitNumber: 2, axisLabel: { fontSize: 10 } },
    series: [{ type: 'line', data: c.daily, symbol: 'none', lineStyle: { color: '#1890ff' }, areaStyle: { color: 'rgba(24,144,255,0.15)' } }],
  };
}

/** Each running competition's key figures as small charts: the figures, the registration trend and the review progress. */
export default function RunningCharts({ running, days }: { running: RunningCompetition[]; days: string[] }) {
  return (
    <Row gutter={[16, 16]}>
      {running.map((c) => (
        <Col xs={24} lg={12} xxl={8} key={c.id}>
          <Card size="small" title={c.name} extra={<Link to={`/register/manager?competitionId=${c.id}`}>报名管理</Link>} data-testid={`running-${c.id}`}>
            <ReactEChartsCore echarts={echarts} option={figuresOption(c)} style={{ height: 120 }} opts={{ renderer: 'svg' }} notMerge />
            <Typography.Text type="secondary" style={CAPTION}>
              近{days.length}天新增报名
            </Typography.Text>
            <ReactEChartsCore echarts={echarts} option={trendOption(c, days)} style={{ height: 90 }} opts={{ renderer: 'svg' }} notMerge />
            <Typography.Text type="secondary" style={CAPTION}>
              评审进度
            </Typography.Text>
            {c.reviewsTotal ? (
              <Progress percent={percent(c.reviewsDone, c.reviewsTotal)} size="small" format={() => `${c.reviewsDone}/${c.reviewsTotal}`} />
            ) : (
              <div>
                <Typography.Text type="secondary">尚未分配评审</Typography.Text>
              </div>
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
