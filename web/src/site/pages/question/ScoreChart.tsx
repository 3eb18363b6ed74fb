import { formatTestScore, metricBounds, type TestSubmission } from '@contest/shared';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { formatMinute } from '#src/common/time.ts';

// Only the pieces this chart draws: the module is loaded on its own, once the team has a scored submission.
echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

/**
 * The team's public scores over time, oldest first, with the best so far as a step line. The axis is the submissions
 * in order, labelled in Beijing time (a time axis would label in the browser's zone).
 */
/**
 * The axis' ends: the scores with a margin of a tenth of their spread (or of the score, when all are equal), kept inside
 * the metric's range, so that an AUC of 0.95 to 0.98 fills the chart and never reaches past 1.
 */
export function axisRange(values: number[], metric: string | undefined): { min: number; max: number } {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = (hi - lo) / 10 || Math.abs(hi) / 10 || 0.1;
  const bounds = metric ? metricBounds(metric) : {};
  const round = (v: number) => Number(v.toPrecision(6));
  return { min: round(Math.max(lo - pad, bounds.min ?? -Infinity)), max: round(Math.min(hi + pad, bounds.max ?? Infinity)) };
}

export function scoreChartOption(scored: TestSubmission[], higherIsBetter: boolean, metric?: string) {
  const points = [...scored].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
  let best: number | null = null;
  const bests = points.map((s) => {
    const v = s.publicScore!;
    if (best === null || (higherIsBetter ? v > best : v < best)) best = v;
    return best;
  });
  return {
    animation: false,
    grid: { left: 56, right: 16, top: 32, bottom: 28 },
    legend: { top: 0, data: ['每次提交', '历史最佳'] },
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatTestScore(v) },
    xAxis: {
      type: 'category',
      data: points.map((s) => formatMinute(s.createdAt).slice(5)),
      axisLabel: { fontSize: 10, hideOverlap: true },
      axisTick: { alignWithLabel: true },
    },
    yAxis: {
      type: 'value',
      ...axisRange(
        points.map((s) => s.publicScore!),
        metric,
      ),
      inverse: !higherIsBetter,
      axisLabel: { fontSize: 10, formatter: (v: number) => formatTestScore(v) },
    },
    series: [
      {
        name: '每次提交',
        type: 'line',
        data: points.map((s) => s.publicScore),
        symbolSize: 6,
        lineStyle: { color: '#91caff' },
        itemStyle: { color: '#1677ff' },
      },
      { name: '历史最佳', type: 'line', step: 'end', data: bests, symbol: 'none', lineStyle: { color: '#52c41a', width: 2 } },
    ],
  };
}

/** `scored`: the team's scored submissions (at least one). Lower-is-better metrics draw the better scores on top. */
export default function ScoreChart({ scored, higherIsBetter, metric }: { scored: TestSubmission[]; higherIsBetter: boolean; metric?: string }) {
  return (
    <div data-testid="score-chart" style={{ minWidth: 0, overflow: 'hidden' }} role="img" aria-label={`我的公榜成绩变化，共 ${scored.length} 次评分`}>
      <ReactEChartsCore
        echarts={echarts}
        option={scoreChartOption(scored, higherIsBetter, metric)}
        style={{ height: 220 }}
        opts={{ renderer: 'svg' }}
        notMerge
      />
    </div>
  );
}
