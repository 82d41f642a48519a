import type { CaptureMethod, RollbackKind } from '../api/rollback-types';
import type { EventLine } from './change-events';
import { pluralize, shortHash } from './format';
import { methodLabels, rollbackKindLabels, sizeWords, validationResultLabels } from './rollback-format';

// The timeline's words for a change's way back: before-state captures and the start they held,
// rollbacks released, requested, done or failed, the sweep's decision (with its reason), the
// validation's result, the post-implementation review, and a template demoted by a rollback.

type Data = Record<string, unknown>;

const text = (data: Data, key: string): string | null => {
  const v = data[key];
  return typeof v === 'string' && v !== '' ? v : null;
};
const num = (data: Data, key: string): number | null => {
  const v = data[key];
  return typeof v === 'number' ? v : null;
};
const records = (data: Data, key: string): Data[] => {
  const v = data[key];
  return Array.isArray(v) ? v.filter((x): x is Data => typeof x === 'object' && x !== null) : [];
};
const quoted = (s: string | null): string[] => (s === null ? [] : [`“${s}”`]);
const kindWords = (data: Data): string => {
  const k = text(data, 'kind');
  return k !== null && k in rollbackKindLabels ? rollbackKindLabels[k as RollbackKind].toLowerCase() : (k ?? 'rollback');
};

function captureLine(c: Data): string {
  const method = text(c, 'method');
  const words = method !== null && method in methodLabels ? methodLabels[method as CaptureMethod].toLowerCase() : (method ?? 'capture');
  const size = num(c, 'sizeBytes');
  const parts = [words, ...(method === 'artifact' && size !== null ? [sizeWords(size)] : []), text(c, 'completeness') ?? '', c['restorable'] === true ? 'restorable' : 'not restorable'];
  const sha = text(c, 'sha256');
  return `${parts.filter((p) => p !== '').join(', ')}${sha === null ? '' : ` · sha256 ${shortHash(sha, 10)}`}`;
}

function reverted(data: Data): string[] {
  return records(data, 'reverted').map((r) => `${text(r, 'flag') ?? '?'} in ${text(r, 'env') ?? '?'}: ${text(r, 'result') === 'changed' ? 'set back' : (text(r, 'result') ?? '?')}`);
}

/** The lines of these actions; null for any other. */
export function rollbackEvent(action: string, data: Data): EventLine | null {
  switch (action) {
    case 'change.before_state_captured': {
      const captures = records(data, 'captures');
      return { what: `recorded the before-state (${pluralize(captures.length, 'capture')})`, details: captures.map(captureLine), tone: 'step' };
    }
    case 'change.prestate_blocked':
      return { what: 'the start waits for a before-state', details: text(data, 'reason') === null ? [] : [text(data, 'reason') ?? ''], tone: 'refusal' };
    case 'change.rollback_released': {
      const releases = num(data, 'releases');
      const needed = num(data, 'needed');
      const count = releases !== null && needed !== null ? ` (${String(releases)} of ${String(needed)})` : '';
      return {
        what: data['executes'] === false ? `released the rollback: it waits for a second approver${count}` : `released the rollback${count}`,
        details: quoted(text(data, 'note')),
        tone: 'decision',
      };
    }
    case 'change.rollback_requested':
      return {
        what: `requested the rollback (${kindWords(data)})`,
        details: [text(data, 'kind') === 'redeploy_previous' ? 'the pipeline is asked to redeploy, and reports it done or failed' : 'run by hand, then reported done or failed'],
        tone: 'step',
      };
    case 'change.rolled_back': {
      const by = text(data, 'by');
      if (by === 'changeledger') return { what: text(data, 'kind') === 'revert_flag' ? 'rolled back: changeledger set the flags back' : `rolled back: ${kindWords(data)}`, details: reverted(data), tone: 'decision' };
      return { what: `reported the rollback done${by === 'pipeline' ? ' (pipeline)' : ''}`, details: quoted(text(data, 'notes')), tone: 'step' };
    }
    case 'change.rollback_failed':
      return { what: `reported the rollback failed${text(data, 'by') === 'pipeline' ? ' (pipeline)' : ''}`, details: quoted(text(data, 'notes')), tone: 'refusal' };
    case 'change.auto_rollback':
      return { what: 'the rollback sweep rolled it back on its own', details: [text(data, 'reason') ?? ''].filter((d) => d !== ''), tone: 'system' };
    case 'change.rollback_escalated':
      return { what: 'the rollback sweep left the rollback to a person', details: [text(data, 'reason') ?? ''].filter((d) => d !== ''), tone: 'system' };
    case 'change.rollback_skipped':
      return { what: 'the rollback sweep skipped it', details: [text(data, 'reason') ?? ''].filter((d) => d !== ''), tone: 'system' };
    case 'change.validated': {
      const result = text(data, 'result');
      const words = result !== null && result in validationResultLabels ? validationResultLabels[result as keyof typeof validationResultLabels] : (result ?? '?');
      return { what: `validated: ${words}`, details: [text(data, 'reason') ?? ''].filter((d) => d !== ''), tone: result === 'still_present' ? 'refusal' : 'system' };
    }
    case 'change.reviewed': {
      const version = num(data, 'version');
      const followUps = num(data, 'followUps');
      return {
        what: `wrote the post-implementation review${version === null ? '' : ` (version ${String(version)})`}`,
        details: [...quoted(text(data, 'summary')), ...(followUps === null || followUps === 0 ? [] : [pluralize(followUps, 'follow-up')])],
        tone: 'step',
      };
    }
    case 'change.review_reminder_sent':
      return { what: 'the review is overdue: its owner was reminded by e-mail', details: [], tone: 'system' };
    case 'change.template_demoted':
      return { what: 'its template was demoted: the rollback took the template’s certification away', details: [], tone: 'system' };
    case 'template.demoted':
      return { what: `the template “${text(data, 'name') ?? '?'}” was demoted to a draft`, details: [text(data, 'reason') ?? ''].filter((d) => d !== ''), tone: 'system' };
    default:
      return null;
  }
}
