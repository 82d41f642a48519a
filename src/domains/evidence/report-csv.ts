/**
 * The report's RED figures and alert transitions as CSV (RFC 4180: CRLF rows, fields quoted when
 * they hold a comma, a quote or a line break, quotes doubled). One header for both kinds of row,
 * told apart by `section`. `subject` is the raw subject, `<kind>:<key>` (service:svc:checkout, as machines join on it),
 * `subject_label` its name. A figure nobody measured is "—", as everywhere in the report. A text
 * cell that a spreadsheet would run as a formula (= + - @, tab, CR) is prefixed with ' (OWASP's
 * CSV injection advice); numbers are written as numbers.
 */
import type { Figure } from './evidence-types.js';
import type { ReportInput } from './report-input.js';
import { NOT_MEASURED, SIGNALS } from './report-words.js';

export const CSV_HEADER = [
  'section', 'source', 'subject', 'subject_label', 'role', 'signal', 'unit', 'window', 'hour_before', 'week_earlier', 'alertname', 'state', 'at',
] as const;

const UNITS = { rate: 'req/s', errorRatio: 'ratio', p95: 'seconds' } as const;
const SIGNAL_COLUMNS = { rate: 'rate', errorRatio: 'error_ratio', p95: 'p95' } as const;

type Cell = string | Figure;

/** Guards a text cell against formula injection, then quotes it when RFC 4180 needs it. */
export function csvCell(v: Cell): string {
  if (v === null) return NOT_MEASURED;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : NOT_MEASURED;
  const guarded = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

const row = (cells: Record<(typeof CSV_HEADER)[number], Cell>) => CSV_HEADER.map((h) => csvCell(cells[h])).join(',');

/** One report version as CSV, rows ending in CRLF. */
export function renderCsv({ evidence: e }: ReportInput): string {
  const rows: string[] = [CSV_HEADER.join(',')];
  const blank = { alertname: '', state: '', at: '' };
  for (const p of e.metrics) {
    if (p.status !== 'measured') continue;
    for (const s of p.value.services) {
      for (const k of SIGNALS) {
        rows.push(row({
          section: 'red', source: p.source.name, subject: `service:${s.key}`, subject_label: s.name, role: s.role, signal: SIGNAL_COLUMNS[k], unit: UNITS[k],
          window: s[k].window, hour_before: s[k].hourBefore, week_earlier: s[k].weekEarlier, ...blank,
        }));
      }
    }
  }
  if (e.alerts.status === 'measured') {
    for (const s of e.alerts.value.subjects) {
      const subject = `${s.kind}:${s.key}`;
      const names = new Map(s.alerts.map((a) => [a.fingerprint, a.label]));
      const base = { section: 'alert', source: e.alerts.source.name, subject, role: s.role, signal: '', unit: '', window: '', hour_before: '', week_earlier: '' };
      if (s.preExisting) {
        rows.push(row({ ...base, subject_label: s.label, alertname: s.alerts.map((a) => a.alertname).join(' '), state: 'firing_at_start', at: e.window.start }));
      }
      for (const t of s.transitions) {
        rows.push(row({ ...base, subject_label: names.get(t.fingerprint) ?? `${s.label} · ${t.alertname}`, alertname: t.alertname, state: t.state, at: t.at }));
      }
    }
  }
  return `${rows.join('\r\n')}\r\n`;
}
