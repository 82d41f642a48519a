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
  { key: 'weekEarlier', label: 'a week earlier', stroke: '#9aa3ad', dash: '3 2' },
  { key: 'hourBefore', label: 'the hour before', stroke: '#6fa8dc', dash: '1 2' },
  { key: 'window', label: 'the window', stroke: '#1f3a5f', dash: null },
] as const;

const num = (v: number) => (Math.round(v * 10) / 10).toString();

function maxOf(s: ComparedSeries): number {
  let max = 0;
  for (const x of [s.window, s.hourBefore, s.weekEarlier]) for (const v of x.values) if (v !== null && Number.isFinite(v) && v > max) max = v;
  return max;
}

/** One path of M/L commands; a null or non-finite value starts a new segment. */
function path(series: Series, max: number): string {
  const n = series.values.length;
  if (n === 0) return '';
  const w = SPARK_WIDTH - 2 * PAD;
  const h = SPARK_HEIGHT - 2 * PAD;
  const out: string[] = [];
  let pen = false;
  series.values.forEach((v: Figure, i) => {
    if (v === null || !Number.isFinite(v)) {
      pen = false;
      return;
    }
    const x = PAD + (n === 1 ? w / 2 : (i * w) / (n - 1));
    const y = PAD + h - (max > 0 ? (Math.max(0, v) / max) * h : 0);
    out.push(`${pen ? 'L' : 'M'}${num(x)} ${num(y)}`);
    pen = true;
  });
  return out.join('');
}

/** The chart of one signal; its title (a tooltip, and what a screen reader says) gives the scale. */
export function sparkline(s: ComparedSeries, signal: RedSignal): string {
  const max = maxOf(s);
  const lines = SPARK_LINES.map((l) => {
    const d = path(s[l.key], max);
    return d ? `<path d="${d}" fill="none" stroke="${l.stroke}" stroke-width="${l.key === 'window' ? 1.6 : 1.1}"${l.dash ? ` stroke-dasharray="${l.dash}"` : ''}/>` : '';
  }).join('');
  const title = `${SIGNAL_NAMES[signal]}: the window against the hour before and a week earlier, 0 to ${figure(signal, max)}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SPARK_WIDTH}" height="${SPARK_HEIGHT}" viewBox="0 0 ${SPARK_WIDTH} ${SPARK_HEIGHT}" role="img" aria-label="${title}"><title>${title}</title>`
    + `<line x1="${PAD}" y1="${SPARK_HEIGHT - PAD}" x2="${SPARK_WIDTH - PAD}" y2="${SPARK_HEIGHT - PAD}" stroke="#e3e6ea" stroke-width="1"/>${lines}</svg>`;
}
