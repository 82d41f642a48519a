import type { EventLine } from './change-events';
import { formatUtcMinute, pluralize } from './format';
import { rollbackEvent } from './rollback-events';

// A change's governance events in plain words (its class, its tier, the windows), for the
// timeline: reclassified, dropped by its template, a start deferred or a closed window passed,
// approvals voided and the change reopened for approval.

type Data = Record<string, unknown>;

const text = (data: Data, key: string): string | null => {
  const v = data[key];
  return typeof v === 'string' && v !== '' ? v : null;
};
const count = (data: Data, key: string): number | null => {
  const v = data[key];
  return typeof v === 'number' ? v : Array.isArray(v) ? v.length : null;
};
const object = (data: Data, key: string): Data | null => {
  const v = data[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Data) : null;
};

function tierMove(data: Data): string[] {
  const t = object(data, 'riskTier');
  if (t === null) return [];
  const from = text(t, 'from');
  const to = text(t, 'to');
  if (to === null) return [];
  return [from === null || from === to ? `risk ${to}` : `risk ${from} → ${to}`];
}

function voided(data: Data, key: string): string[] {
  const n = count(data, key);
  return n === null || n === 0 ? [] : [`${pluralize(n, 'decision')} given before voided`];
}

const causes: Record<string, string> = {
  edited: 'the change was edited',
  reclassified: 'it was reclassified',
  template_withdrawn: 'its template was withdrawn',
  template_edited: 'its template was edited',
  template_uncovered: 'its template no longer covers it',
  template_demoted: 'its template was demoted after a rollback',
  before_state_added: 'a before-state was added',
};

/** The governance events' lines; null for any other action. */
export function governanceEvent(action: string, data: Data): EventLine | null {
  switch (action) {
    case 'change.reclassified':
      return {
        what: `reclassified the change: ${text(data, 'from') ?? '?'} → ${text(data, 'to') ?? '?'}`,
        details: [...(text(data, 'note') === null ? [] : [`“${text(data, 'note') ?? ''}”`]), ...tierMove(data), ...(text(data, 'policy') === null ? [] : [text(data, 'policy') ?? '']), ...voided(data, 'votesCleared')],
        tone: 'decision',
      };
    case 'change.class_dropped': {
      const template = object(data, 'template');
      const name = template === null ? null : text(template, 'name');
      return {
        what: `its template${name === null ? '' : ` “${name}”`} no longer backs it: ${text(data, 'from') ?? '?'} → ${text(data, 'to') ?? '?'}`,
        details: [...(text(data, 'causeWords') === null ? [] : [text(data, 'causeWords') ?? '']), ...tierMove(data), ...(text(data, 'policy') === null ? [] : [text(data, 'policy') ?? '']), ...voided(data, 'votesCleared')],
        tone: 'system',
      };
    }
    case 'change.window_bypassed': {
      const kind = text(data, 'kind') === 'freeze' ? 'the freeze' : 'the closed change window';
      const approvals = count(data, 'approvals');
      return {
        what: `started it past ${kind} “${text(data, 'window') ?? '?'}”: an emergency${approvals === null ? '' : ` approved by ${pluralize(approvals, 'approver')}`}`,
        details: text(data, 'reason') === null ? [] : [text(data, 'reason') ?? ''],
        tone: 'decision',
      };
    }
    case 'change.start_deferred': {
      const next = text(data, 'nextOpening');
      return {
        what: 'the start waits: the windows are closed',
        details: [...(text(data, 'reason') === null ? [] : [text(data, 'reason') ?? '']), ...(next === null ? [] : [`next opening ${formatUtcMinute(next)}`])],
        tone: 'system',
      };
    }
    case 'change.approvals_voided': {
      const cause = text(data, 'cause');
      return { what: `approvals voided${cause === null ? '' : `: ${causes[cause] ?? cause}`}`, details: voided(data, 'voided'), tone: 'system' };
    }
    case 'change.reopened': {
      const cause = text(data, 'cause');
      const move = typeof data['from'] === 'string' && typeof data['to'] === 'string' ? [`${data['from']} → ${data['to']}`.replace(/_/g, ' ')] : [];
      return {
        what: `the change waits for approval again${cause === null ? '' : ` (${causes[cause] ?? cause})`}`,
        details: [...voided(data, 'voided'), ...move],
        tone: 'system',
      };
    }
    default:
      return rollbackEvent(action, data);
  }
}

/** What a registration or an edit says of the class and tier, as timeline details. */
export function governanceDetails(data: Data): string[] {
  const out: string[] = [];
  const cls = data['changeClass'];
  if (typeof cls === 'string') out.push(`class ${cls}`);
  else if (typeof cls === 'object' && cls !== null) {
    const c = cls as Data;
    out.push(`class ${text(c, 'from') ?? '?'} → ${text(c, 'to') ?? '?'}`);
  }
  const tier = data['riskTier'];
  if (typeof tier === 'string') out.push(`risk ${tier}`);
  else out.push(...tierMove(data));
  const policy = text(data, 'approvalPolicy');
  if (policy !== null) out.push(policy);
  return out;
}
