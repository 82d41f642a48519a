import type { AuditEvent, ChangeStatus, Outcome } from '../api/types';
import { outcomeLabels, statusLabels } from './change-format';
import { formatUtcMinute, pluralize } from './format';
import { governanceDetails, governanceEvent } from './governance-events';

// A change's audit events in plain words: what happened (the headline, after the actor's
// name) and the details the event's data carries. Unknown actions still read: their data is
// listed as it is, so a newer server never shows an empty line.

export type EventLine = { what: string; details: string[]; tone: 'decision' | 'refusal' | 'step' | 'system' };

type Data = Record<string, unknown>;

function str(data: Data, key: string): string | null {
  const v = data[key];
  return typeof v === 'string' && v !== '' ? v : null;
}

function num(data: Data, key: string): number | null {
  const v = data[key];
  return typeof v === 'number' ? v : null;
}

function list(data: Data, key: string): string[] {
  const v = data[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function status(v: unknown): string {
  return typeof v === 'string' && v in statusLabels ? statusLabels[v as ChangeStatus] : String(v);
}

function outcome(v: unknown): string {
  return typeof v === 'string' && v in outcomeLabels ? outcomeLabels[v as Outcome] : String(v);
}

function quoted(text: string | null): string[] {
  return text === null ? [] : [`“${text}”`];
}

function plainValue(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function registered(data: Data): EventLine {
  const details: string[] = [];
  const components = list(data, 'components');
  if (components.length > 0) details.push(`components: ${components.join(', ')}`);
  const unresolved = list(data, 'unresolved');
  if (unresolved.length > 0) details.push(`not recognised: ${unresolved.join(', ')}`);
  const start = str(data, 'windowStart');
  const end = str(data, 'windowEnd');
  if (start !== null && end !== null) details.push(`window ${formatUtcMinute(start)} – ${formatUtcMinute(end)}`);
  const hops = num(data, 'hops');
  if (hops !== null) details.push(pluralize(hops, 'hop'));
  const crit = str(data, 'criticality');
  if (crit !== null) details.push(`criticality ${crit}`);
  const scope = data['scope'];
  if (typeof scope === 'object' && scope !== null) {
    const s = scope as Data;
    const services = num(s, 'services');
    const items = num(s, 'items');
    if (services !== null) details.push(`scope ${pluralize(services, 'service')}${items !== null && items > 0 ? `, ${pluralize(items, 'infrastructure item')} held` : ''}`);
  }
  details.push(...governanceDetails(data));
  if (data['gated'] === true) details.push('needs approval');
  const to = str(data, 'status');
  return { what: `registered the change${to === null ? '' : ` — ${status(to)}`}`, details, tone: 'step' };
}

// What the outbox did with a callback or a ticket step: one line, the event it carried, the
// HTTP status, and only what a reader needs besides (the error, the note, the ticket opened).
function delivery(action: string, data: Data): EventLine | null {
  const m = /^change\.(callback|ticket_step)_(delivered|retrying|failed)$/.exec(action);
  if (m === null) return null;
  const http = num(data, 'httpStatus');
  const attempts = num(data, 'attempts');
  const ticket = data['ticket'];
  const key = typeof ticket === 'object' && ticket !== null ? str(ticket as Data, 'key') : null;
  return {
    what: `${m[1] === 'callback' ? 'callback' : 'ticket step'} ${str(data, 'event') ?? ''} ${m[2] ?? ''}${http === null ? '' : ` (HTTP ${String(http)})`}`,
    details: [
      ...(key === null ? [] : [`ticket ${key}`]),
      ...(attempts !== null && attempts > 1 ? [`after ${pluralize(attempts, 'attempt')}`] : []),
      ...(str(data, 'error') === null ? [] : [str(data, 'error') ?? '']),
      ...(str(data, 'note') === null ? [] : [str(data, 'note') ?? '']),
    ],
    tone: m[2] === 'failed' ? 'refusal' : 'system',
  };
}

export function describeEvent(event: AuditEvent): EventLine {
  const data = event.data;
  const sent = delivery(event.action, data) ?? governanceEvent(event.action, data);
  if (sent !== null) return sent;
  const move = typeof data['from'] === 'string' && typeof data['to'] === 'string' ? [`${status(data['from'])} → ${status(data['to'])}`] : [];
  switch (event.action) {
    case 'change.registered':
      return registered(data);
    case 'change.approval_given': {
      const approvals = num(data, 'approvals');
      const required = num(data, 'required');
      const count = approvals !== null && required !== null ? ` (${String(approvals)} of ${String(required)})` : '';
      return {
        what: `approved${count}${data['critical'] === true ? ' as a critical approver' : ''}`,
        details: quoted(str(data, 'comment')),
        tone: 'decision',
      };
    }
    case 'change.approved': {
      const approvals = num(data, 'approvals');
      return { what: `completed the quorum: the change is approved${approvals === null ? '' : ` with ${pluralize(approvals, 'approval')}`}`, details: move, tone: 'decision' };
    }
    case 'change.rejected':
      return { what: 'rejected the change', details: [...quoted(str(data, 'reason')), ...move], tone: 'refusal' };
    case 'change.started':
      // autoStart: the automation started it, on the approval that completed the quorum.
      if (event.actor.kind === 'automation') {
        return { what: `started automatically (${event.actor.automation ?? event.actor.name})${event.actor.trigger === null ? '' : ` on ${event.actor.trigger}`}`, details: move, tone: 'system' };
      }
      return { what: 'started the change', details: move, tone: 'step' };
    case 'change.completed':
      return { what: `completed the change — outcome ${outcome(data['outcome'])}`, details: move, tone: 'step' };
    case 'change.aborted':
      return { what: `aborted the change — outcome ${outcome(data['outcome'])}`, details: move, tone: 'refusal' };
    case 'change.outcome_recorded':
      return {
        what: `recorded the outcome ${outcome(data['outcome'])}${str(data, 'after') === null ? '' : ` after ${str(data, 'after') ?? ''}`}`,
        details: data['was'] === undefined || data['was'] === null ? [] : [`was ${outcome(data['was'])}`],
        tone: 'step',
      };
    case 'change.window_ended':
      return { what: `the window ended — outcome ${outcome(data['outcome'])}`, details: move, tone: 'system' };
    case 'change.cancelled':
      return { what: 'cancelled the change', details: [...quoted(str(data, 'reason')), ...move], tone: 'refusal' };
    case 'change.expired':
      return { what: `the change expired${str(data, 'reason') === null ? '' : `: ${str(data, 'reason') ?? ''}`}`, details: move, tone: 'system' };
    case 'change.reported': {
      const version = num(data, 'reportVersion');
      return { what: `report${version === null ? '' : ` v${String(version)}`} written — impact ${plainValue(data['impact'])}`, details: move, tone: 'system' };
    }
    case 'change.evaluation_requested': {
      const minutes = num(data, 'evidenceMinutes');
      return { what: `asked for a new evaluation${minutes === null ? '' : ` over ${pluralize(minutes, 'minute')}`}`, details: move, tone: 'step' };
    }
    case 'change.submitted':
      return { what: 'submitted the draft', details: move, tone: 'step' };
    case 'change.mapped':
      return { what: 'every component is mapped: the change moves on', details: move, tone: 'step' };
    case 'change.edited': {
      const version = num(data, 'blastVersion');
      const fields = list(data, 'fields');
      return {
        what: `edited the change${version === null ? '' : ` (blast radius v${String(version)})`}`,
        details: [...(fields.length > 0 ? [`fields: ${fields.join(', ')}`] : []), ...(data['changeClass'] !== undefined || data['riskTier'] !== undefined ? governanceDetails(data) : [])],
        tone: 'step',
      };
    }
    case 'change.components_mapped': {
      const mapped = Array.isArray(data['mapped']) ? (data['mapped'] as Data[]) : [];
      const remaining = list(data, 'remaining');
      return {
        what: 'mapped components',
        details: [
          ...mapped.map((m) => `${plainValue(m['input'])} → ${plainValue(m['key'])}`),
          ...(remaining.length > 0 ? [`still to map: ${remaining.join(', ')}`] : []),
        ],
        tone: 'step',
      };
    }
    case 'change.classified': {
      const classified = Array.isArray(data['classified']) ? (data['classified'] as Data[]) : [];
      const was = str(data, 'was');
      const now = str(data, 'criticality');
      return {
        what: 'classified components',
        details: [
          ...classified.map((c) => `${plainValue(c['name'])} is ${plainValue(c['tier'])}`),
          `criticality ${now ?? 'still pending'}${was === null ? '' : ` (was ${was})`}`,
        ],
        tone: 'decision',
      };
    }
    case 'change.callback_test':
      return { what: 'sent a test callback to the pipeline', details: str(data, 'deliveryId') === null ? [] : [`delivery ${str(data, 'deliveryId') ?? ''}`], tone: 'step' };
    default:
      return {
        what: event.action,
        details: Object.entries(data).map(([k, v]) => `${k}: ${plainValue(v)}`),
        tone: 'step',
      };
  }
}
