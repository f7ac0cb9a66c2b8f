// The chart box of one question of /risultati; ECharts itself (results-echarts.ts) is loaded when the
// first chart comes near the view.
import { useEffect, useRef } from 'react';

type Drawing = typeof import('./results-echarts.ts');

export interface ResultsChartProps {
  /** The rows' labels, in order; a protected row has no bar and says so in its label. */
  labels: string[];
  /** `null`: protected (no bar). */
  values: (number | null)[];
  /** The text summary: also the chart's accessible name. */
  summary: string;
}

/**
 * Charts are drawn when they come near the view, one per task: a phone that opens the page draws none
 * of those below the fold, and no single task draws them all (four charts drawn in one effect pass
 * were a 200 ms task on Lighthouse's phone, the page's total blocking time 450–480 ms). Until then the
 * box keeps its size and its accessible name, and the data table beside it is already there.
 */
const waiting: ((drawing: Drawing) => void)[] = [];
let running = false;
let loading: Promise<Drawing> | undefined;
function drawInTurn(draw: (drawing: Drawing) => void) {
  waiting.push(draw);
  if (running) return;
  running = true;
  const next = async () => {
    let drawing: Drawing;
    try {
      drawing = await (loading ??= import('./results-echarts.ts'));
    } catch (error) {
      // A chunk that failed to load. If it is gone (a new build), main.tsx's `vite:preloadError`
      // handler loads the page again (at most once per path in 10 s). Otherwise the charts queued so
      // far stay as their boxes beside their tables, and the next chart that comes near the view
      // tries again.
      loading = undefined;
      waiting.length = 0;
      running = false;
      throw error;
    }
    waiting.shift()?.(drawing);
    if (waiting.length > 0) setTimeout(() => void next(), 0);
    else running = false;
  };
  setTimeout(() => void next(), 0);
}

/** One question's counts as horizontal bars; the page shows its summary and its data table next to it. */
export default function ResultsChart({ labels, values, summary }: ResultsChartProps) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let chart: { resize(): void; dispose(): void } | undefined;
    let cancelled = false;
    const draw = ({ drawResultsChart }: Drawing) => {
      if (!cancelled) chart = drawResultsChart(element, { labels, values, summary });
    };
    const near = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        near.disconnect();
        drawInTurn(draw);
      },
      { rootMargin: '200px 0px' },
    );
    near.observe(element);
    const resize = () => chart?.resize();
    window.addEventListener('resize', resize);
    return () => {
      cancelled = true;
      near.disconnect();
      window.removeEventListener('resize', resize);
      chart?.dispose();
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
