import type { Compared, ComparedSeries, Figure, Impact, NotCountedKind, RedSignal, Series } from '../api/report-types';

// How the change page prints the report's figures: a value nobody measured is "—", never 0.

export const signalLabels: Record<RedSignal, string> = { rate: 'Request rate', errorRatio: 'Error ratio', p95: 'p95 latency' };

export function formatFigure(signal: RedSignal, v: Figure): string {
  if (v === null) return '—';
  if (signal === 'rate') return `${v < 10 ? v.toFixed(2) : v.toFixed(1)} req/s`;
  if (signal === 'errorRatio') return `${(v * 100).toFixed(2)} %`;
  return v < 1 ? `${String(Math.round(v * 1000))} ms` : `${v.toFixed(2)} s`;
}

/** A chart's axis tick: the unit is in the signal's heading, so the tick stays short. */
export function axisTick(signal: RedSignal, v: number): string {
  if (signal === 'rate') return v < 10 ? v.toFixed(1) : v.toFixed(0);
  if (signal === 'errorRatio') return `${(v * 100).toFixed(v < 0.1 ? 1 : 0)}%`;
  return v < 1 ? `${String(Math.round(v * 1000))}ms` : `${v.toFixed(1)}s`;
}

export function formatCount(v: Figure): string {
  return v === null ? '—' : v.toLocaleString('en-US');
}

export const comparedParts = [
  ['window', 'Window'],
  ['hourBefore', 'Hour before'],
  ['weekEarlier', 'Week earlier'],
] as const satisfies ReadonlyArray<readonly [keyof Compared, string]>;

export const notCountedLabels: Record<NotCountedKind, string> = { flapping: 'Flapping', pre_existing: 'Pre-existing', rule_defect: 'Rule defect' };

export const impactWords: Record<Impact, string> = { outage: 'outage', significant: 'significant', minor: 'minor', none: 'none', unknown: 'unknown' };

/** "Rules significant · AI minor" when the two disagree, else null (the server's words, restated). */
export function disagreementLine(rules: Impact, ai: Impact | null): string | null {
  return ai === null || ai === rules ? null : `Rules ${rules} · AI ${ai}`;
}

function times(s: Series): number[] {
  const t0 = Date.parse(s.start) / 1000;
  return s.values.map((_, i) => t0 + i * s.stepSeconds);
}

/**
 * The three series of one signal on one time axis (seconds): the hour before leads into the
 * window, the week earlier is already aligned to the window by the server. Each series is null
 * at the others' instants, so uPlot leaves a gap there instead of drawing through it.
 */
export function chartData(c: ComparedSeries): [number[], Figure[], Figure[], Figure[]] {
  const at = new Map<number, [Figure, Figure, Figure]>();
  const put = (ts: number[], values: Figure[], slot: 0 | 1 | 2): void => {
    ts.forEach((t, i) => {
      const row = at.get(t) ?? [null, null, null];
      row[slot] = values[i] ?? null;
      at.set(t, row);
    });
  };
  put(times(c.window), c.window.values, 0);
  put(times(c.weekEarlier), c.weekEarlier.values, 1);
  put(times(c.hourBefore), c.hourBefore.values, 2);
  const xs = [...at.keys()].sort((a, b) => a - b);
  return [xs, xs.map((x) => at.get(x)![0]), xs.map((x) => at.get(x)![1]), xs.map((x) => at.get(x)![2])];
}

/** Whether a series has any measured sample at all (else the chart says "not measured"). */
export function hasSamples(c: ComparedSeries): boolean {
  return [c.window, c.weekEarlier, c.hourBefore].some((s) => s.values.some((v) => v !== null));
}
