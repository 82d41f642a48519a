import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ComparedSeries, RedSignal } from '../api/report-types';
import { axisTick, chartData, hasSamples } from '../lib/report-format';
import './report-chart.css';

const HEIGHT = 110;
const FALLBACK_WIDTH = 240;

// One RED signal of one service, drawn by uPlot: the window (solid), the same span a week earlier
// (dashed, aligned to the window) and the hour before (grey, leading into the window's start). It
// takes the width of its box, and follows it when the page is resized.
export function ReportChart({ signal, series }: { signal: RedSignal; series: ComparedSeries }) {
  const box = useRef<HTMLDivElement>(null);
  const measured = hasSamples(series);

  useEffect(() => {
    const target = box.current;
    if (target === null || !measured) return;
    const width = (): number => Math.max(160, target.clientWidth || FALLBACK_WIDTH);
    const plot = new uPlot(
      {
        width: width(),
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), max === min ? max + 1 : max * 1.1] } },
        axes: [
          // Times in UTC, as everywhere on the page (never the browser's zone); the legend says so.
          { size: 22, font: '10px sans-serif', grid: { show: false }, values: (_u, splits) => splits.map((s) => new Date(s * 1000).toISOString().slice(11, 16)) },
          { size: 50, font: '10px sans-serif', values: (_u, splits) => splits.map((s) => axisTick(signal, s)) },
        ],
        series: [
          {},
          { label: 'Window', stroke: '#2f5fd0', width: 1.6, spanGaps: false },
          { label: 'Week earlier', stroke: '#8a6d00', width: 1.2, dash: [4, 3], spanGaps: false },
          { label: 'Hour before', stroke: '#9aa1ab', width: 1.2, spanGaps: false },
        ],
      },
      chartData(series),
      target,
    );
    const resized = new ResizeObserver(() => { plot.setSize({ width: width(), height: HEIGHT }); });
    resized.observe(target);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [signal, series, measured]);

  return (
    <div className="report-chart" data-testid="report-chart" data-signal={signal} data-measured={String(measured)}>
      {measured ? <div ref={box} className="report-chart-box" /> : <p className="muted small report-chart-empty">— not measured</p>}
    </div>
  );
}

export function ChartLegend() {
  return (
    <p className="report-chart-legend muted small">
      <span className="swatch swatch-window" /> window <span className="swatch swatch-week" /> week earlier{' '}
      <span className="swatch swatch-hour" /> hour before · times UTC
    </p>
  );
}
