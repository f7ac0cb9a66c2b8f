// ECharts (SVG renderer, aria on): loaded by a chart of /risultati when it comes near the view, so no
// other page's bundle, and no phone that does not scroll to a chart, evaluates it.
import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { AriaComponent, GridComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import { formatNumber } from '../../lib/format.ts';
import type { ResultsChartProps } from './results-chart.tsx';

echarts.use([BarChart, GridComponent, TooltipComponent, AriaComponent, SVGRenderer]);

/** Draws one question's counts as horizontal bars in `element`; the caller disposes of the chart. */
export function drawResultsChart(
  element: HTMLElement,
  { labels, values, summary }: ResultsChartProps,
): echarts.ECharts {
  const chart = echarts.init(element, undefined, { renderer: 'svg', locale: 'EN' });
  chart.setOption({
    animation: false,
    aria: { enabled: true, label: { description: summary } },
    color: ['#0066cc'],
    textStyle: { fontFamily: 'Titillium Web, Geneva, Tahoma, sans-serif', color: '#1a1a1a' },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (v: unknown) =>
        v === null || v === undefined || v === '-' ? 'protetto' : formatNumber(Number(v)),
    },
    grid: { left: 8, right: 40, top: 8, bottom: 8, containLabel: true },
    xAxis: {
      type: 'value',
      minInterval: 1,
      axisLabel: { formatter: (v: number) => formatNumber(v), color: '#1a1a1a' },
    },
    yAxis: {
      type: 'category',
      inverse: true,
      data: labels.map((l, i) => (values[i] === null ? `${l} (protetto)` : l)),
      axisLabel: { color: '#1a1a1a', width: 180, overflow: 'break' },
    },
    series: [
      {
        type: 'bar',
        name: 'Risposte',
        data: values.map((v) => (v === null ? '-' : v)),
        label: {
          show: true,
          position: 'right',
          color: '#1a1a1a',
          formatter: (p: { value: unknown }) => (typeof p.value === 'number' ? formatNumber(p.value) : ''),
        },
      },
    ],
  });
  return chart;
}
