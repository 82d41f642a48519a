/**
 * The report's RED figures, alert transitions and validation items as CSV (RFC 4180: CRLF rows,
 * fields quoted when they hold a comma, a quote or a line break, quotes doubled). One header for
 * every kind of row, told apart by `section`; the last three columns (observed, expected, detail)
 * are the validation rows' and were appended, so a reader of the older columns reads them as before.
 * `subject` is the raw subject, `<kind>:<key>` (service:svc:checkout, as machines join on it;
 * item:<id> for a validation item), `subject_label` its name (an item's target). A figure nobody measured is "—", as everywhere in the report. A text
 * cell that a spreadsheet would run as a formula (= + - @, tab, CR) is prefixed with ' (OWASP's
 * CSV injection advice); numbers are written as numbers.
 */
import type { Figure } from './evidence-types.js';
import type { ReportInput } from './report-input.js';
import { expectedWords, NOT_MEASURED, SIGNALS } from './report-words.js';

export const CSV_HEADER = [
  'section', 'source', 'subject', 'subject_label', 'role', 'signal', 'unit', 'window', 'hour_before', 'week_earlier', 'alertname', 'state', 'at',
  'observed', 'expected', 'detail',
] as const;
const VALIDATION_SOURCE = 'validation plan';
/** The state of an item the check has not reached yet. */
const NOT_CHECKED = 'not_checked';

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

/** An observed value is stored as text; a numeric one is written as a number (a negative one is no formula). */
const numberOrText = (v: string | null): Cell => (v !== null && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(v) ? Number(v) : v);

const row = (cells: Record<(typeof CSV_HEADER)[number], Cell>) => CSV_HEADER.map((h) => csvCell(cells[h])).join(',');

/** One report version as CSV, rows ending in CRLF. */
export function renderCsv({ evidence: e }: ReportInput): string {
  const rows: string[] = [CSV_HEADER.join(',')];
  const blank = { alertname: '', state: '', at: '', observed: '', expected: '', detail: '' };
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
      const base = { section: 'alert', source: e.alerts.source.name, subject, role: s.role, signal: '', unit: '', window: '', hour_before: '', week_earlier: '', observed: '', expected: '', detail: '' };
      if (s.preExisting) {
        rows.push(row({ ...base, subject_label: s.label, alertname: s.alerts.map((a) => a.alertname).join(' '), state: 'firing_at_start', at: e.window.start }));
      }
      for (const t of s.transitions) {
        rows.push(row({ ...base, subject_label: names.get(t.fingerprint) ?? `${s.label} · ${t.alertname}`, alertname: t.alertname, state: t.state, at: t.at }));
      }
    }
  }
  for (const i of e.validation?.items ?? []) {
    rows.push(row({
      section: 'validation', source: VALIDATION_SOURCE, subject: `item:${i.id}`, subject_label: i.target, role: '', signal: i.check, unit: '',
      window: '', hour_before: '', week_earlier: '', alertname: '', state: i.row?.state ?? NOT_CHECKED, at: i.row?.checkedAt ?? '',
      observed: i.row ? numberOrText(i.row.observed) : '', expected: expectedWords(i), detail: i.row?.detail ?? '',
    }));
  }
  return `${rows.join('\r\n')}\r\n`;
}
