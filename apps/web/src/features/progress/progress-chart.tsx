// ECharts (SVG renderer, aria on), loaded only by /portale/avanzamento (and the staff home's trends):
// no chart code in any other page's bundle.
import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import { onFirstUse } from '@portale/shared/lazy';

echarts.use([
  LineChart,
  BarChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  AriaComponent,
  SVGRenderer,
]);

export interface ChartSeries {
  name: string;
  values: number[];
}

export interface ProgressChartProps {
  kind: 'line' | 'bar';
  categories: string[];
  series: ChartSeries[];
  /** The text summary: also the chart's accessible name. */
  summary: string;
  height?: number;
}

/** Distinct colours (≥ 3:1 on white) and, for lines, distinct dash patterns and symbols: never colour alone. */
const COLORS = ['#0066cc', '#7a3db8', '#00774f', '#c0203d', '#a35200', '#17324d', '#5f6b78'];
const DASHES = ['solid', 'dashed', 'dotted', 'solid', 'dashed', 'dotted', 'solid'] as const;
const SYMBOLS = ['circle', 'rect', 'triangle', 'diamond', 'pin', 'arrow', 'roundRect'];

const integer = onFirstUse(
  () => new Intl.NumberFormat('it-IT', { useGrouping: 'always', maximumFractionDigits: 0 }),
);

/** One chart; the page shows its summary and its data table next to it. */
export default function ProgressChart({
  kind,
  categories,
  series,
  summary,
  height = 320,
}: ProgressChartProps) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!container.current) return;
    const chart = echarts.init(container.current, undefined, { renderer: 'svg', locale: 'EN' });
    chart.setOption({
      animation: false,
      aria: { enabled: true, label: { description: summary } },
      color: COLORS,
      textStyle: { fontFamily: 'Titillium Web, Geneva, Tahoma, sans-serif', color: '#1a1a1a' },
      legend: { top: 0, type: 'scroll', textStyle: { color: '#1a1a1a' } },
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => integer().format(Number(v)) },
      grid: { left: 8, right: 16, top: 48, bottom: 8, containLabel: true },
      xAxis:
        kind === 'bar' && categories.length > 8
          ? { type: 'value', axisLabel: { formatter: (v: number) => integer().format(v), color: '#1a1a1a' } }
          : { type: 'category', data: categories, axisLabel: { color: '#1a1a1a' } },
      yAxis:
        kind === 'bar' && categories.length > 8
          ? { type: 'category', data: categories, inverse: true, axisLabel: { color: '#1a1a1a' } }
          : {
              type: 'value',
              minInterval: 1,
              axisLabel: { formatter: (v: number) => integer().format(v), color: '#1a1a1a' },
            },
      series: series.map((s, i) =>
        kind === 'line'
          ? {
              type: 'line',
              name: s.name,
              data: s.values,
              symbol: SYMBOLS[i % SYMBOLS.length],
              symbolSize: 6,
              lineStyle: { width: 2, type: DASHES[i % DASHES.length] },
            }
          : { type: 'bar', name: s.name, data: s.values },
      ),
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [kind, categories, series, summary]);
  return (
    <div
      ref={container}
      role="img"
      aria-label={summary}
      className="progress-chart"
      style={{ width: '100%', height }}
      data-testid="progress-chart"
    />
  );
}
