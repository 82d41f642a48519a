/**
 * A RED series against both baselines as a small inline SVG, for report.html and the e-mail: no
 * script, no external reference, colours as SVG attributes (not style attributes, which the
 * report's Content-Security-Policy would block). Pure and deterministic.
 *
 * Each series is drawn across the full width over its own span: the window and the week earlier
 * share their span's length; the hour before is an hour, stretched to the same width, for its
 * level rather than its timing. The y axis starts at 0, so a bump reads at its true size. A gap
 * (no sample) breaks the line: nothing is drawn where nothing was measured.
 */
import type { ComparedSeries, Figure, RedSignal, Series } from './evidence-types.js';
import { figure, SIGNAL_NAMES } from './report-words.js';

export const SPARK_WIDTH = 160;
export const SPARK_HEIGHT = 32;
const PAD = 2;

/** The lines of the chart, their colours and dashes; the legend of report.html uses the same. */
export const SPARK_LINES = [
  { key: 'weekEarlier', label: 'a week earlier', stroke: '#9aa3ad', dash: '30 20' },
  { key: 'hourBefore', label: 'the hour before', stroke: '#6fa8dc', dash: '10 20' },
  { key: 'window', label: 'the window', stroke: '#1f3a5f', dash: null },
] as const;

/**
 * Coordinates are drawn on a grid ten times finer than the pixels (the viewBox), as integers:
 * integer-to-string is several times faster than formatting decimals, and a 300-service report
 * draws some 160,000 points.
 */
const SCALE = 10;
const VIEW_W = SPARK_WIDTH * SCALE;
const VIEW_H = SPARK_HEIGHT * SCALE;
const P = PAD * SCALE;

function maxOf(s: ComparedSeries): number {
  let max = 0;
  for (const x of [s.window, s.hourBefore, s.weekEarlier]) for (const v of x.values) if (v !== null && Number.isFinite(v) && v > max) max = v;
  return max;
}

/** The x coordinates of a series of n points, the same for every series of that length. */
const xsByLength = new Map<number, string[]>();
function xsOf(n: number): string[] {
  let xs = xsByLength.get(n);
  if (!xs) {
    const w = VIEW_W - 2 * P;
    xs = Array.from({ length: n }, (_, i) => String(Math.round(P + (n === 1 ? w / 2 : (i * w) / (n - 1)))));
    xsByLength.set(n, xs);
  }
  return xs;
}

/** One path of M/L commands; a null or non-finite value starts a new segment. */
function path(series: Series, max: number): string {
  const values: Figure[] = series.values;
  const n = values.length;
  if (n === 0) return '';
  const xs = xsOf(n);
  const h = VIEW_H - 2 * P;
  const k = max > 0 ? h / max : 0;
  let d = '';
  let pen = false;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined || !Number.isFinite(v)) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${xs[i]!} ${Math.round(P + h - (v > 0 ? v * k : 0))}`;
    pen = true;
  }
  return d;
}

/** The chart of one signal; its title (a tooltip, and what a screen reader says) gives the scale. */
export function sparkline(s: ComparedSeries, signal: RedSignal): string {
  const max = maxOf(s);
  const lines = SPARK_LINES.map((l) => {
    const d = path(s[l.key], max);
    return d ? `<path d="${d}" fill="none" stroke="${l.stroke}" stroke-width="${l.key === 'window' ? 16 : 11}"${l.dash ? ` stroke-dasharray="${l.dash}"` : ''}/>` : '';
  }).join('');
  const title = `${SIGNAL_NAMES[signal]}: the window against the hour before and a week earlier, 0 to ${figure(signal, max)}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SPARK_WIDTH}" height="${SPARK_HEIGHT}" viewBox="0 0 ${VIEW_W} ${VIEW_H}" role="img"><title>${title}</title>`
    + `<line x1="${P}" y1="${VIEW_H - P}" x2="${VIEW_W - P}" y2="${VIEW_H - P}" stroke="#e3e6ea" stroke-width="10"/>${lines}</svg>`;
}
