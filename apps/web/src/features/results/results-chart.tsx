// ECharts (SVG renderer, aria on), loaded only by /risultati: no chart code in any other page's bundle.
import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { AriaComponent, GridComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import { formatNumber } from '../../lib/format.ts';

echarts.use([BarChart, GridComponent, TooltipComponent, AriaComponent, SVGRenderer]);

export interface ResultsChartProps {
  /** The rows' labels, in order; a protected row has no bar and says so in its label. */
  labels: string[];
  /** `null`: protected (no bar). */
  values: (number | null)[];
  /** The text summary: also the chart's accessible name. */
  summary: string;
}

/** One question's counts as horizontal bars; the page shows its summary and its data table next to it. */
export default function ResultsChart({ labels, values, summary }: ResultsChartProps) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!container.current) return;
    const chart = echarts.init(container.current, undefined, { renderer: 'svg', locale: 'EN' });
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
            formatter: (p: { value: unknown }) =>
              typeof p.value === 'number' ? formatNumber(p.value) : '',
          },
        },
      ],
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [labels, values, summary]);
  return (
    <div
      ref={container}
      role="img"
      aria-label={summary}
      style={{ width: '100%', height: Math.max(160, 48 * labels.length + 32) }}
      data-testid="results-chart"
    />
  );
}
