/**
 * The lifecycle of a change as one pure function: which action may move which status, and where.
 *
 *   register ─ unresolved names ─► pending_mapping ─(mapped)─┐
 *      ├─ gated ─────────────────────────────────────────────┴► pending_approval ─(reject)─► rejected
 *      │                                                        │  └─(expire)─► expired
 *      │                                                  (quorum)▼
 *      │                                                     approved ─(expire: not started)─► expired
 *      │                                                        │ (start, or autoStart)
 *      └─ not gated ─► scheduled ─(start / window start)────────┤
 *                     (or active at once with startNow)         ▼
 *                                                            active ─(finish · complete · abort · window end)─► evaluating ─(horizon)─► reported
 *   cancel: draft, scheduled, pending_mapping, pending_approval, approved.   evaluate: reported → evaluating (a new report version).
 *   reopen (an edit after approval, a class drop, a reclassification): scheduled, pending_approval, approved → pending_approval, or scheduled when no approval is needed.
 */

export const CHANGE_STATUSES = ['draft', 'scheduled', 'pending_mapping', 'pending_approval', 'approved', 'rejected', 'expired', 'active', 'evaluating', 'reported', 'cancelled'] as const;
export type ChangeStatus = (typeof CHANGE_STATUSES)[number];
export const FINAL_STATUSES: readonly ChangeStatus[] = ['rejected', 'expired', 'cancelled', 'reported'];

export const ACTIONS = ['submit', 'mapped', 'approve', 'reject', 'expire', 'start', 'finish', 'abort', 'window_end', 'report', 'evaluate', 'cancel', 'edit', 'reopen'] as const;
export type Action = (typeof ACTIONS)[number];

/** What decides where a change goes once nothing is left to map: the approval gate, and startNow. */
export type Routing = { gated: boolean; startNow: boolean };

export type Move = { ok: true; to: ChangeStatus } | { ok: false; reason: string };

const FROM: Record<Action, readonly ChangeStatus[]> = {
  submit: ['draft'],
  mapped: ['pending_mapping'],
  approve: ['pending_approval'],
  reject: ['pending_approval'],
  expire: ['pending_mapping', 'pending_approval', 'approved', 'scheduled'],
  start: ['scheduled', 'approved'],
  finish: ['active'],
  abort: ['active'],
  window_end: ['active'],
  report: ['evaluating'],
  evaluate: ['reported'],
  cancel: ['draft', 'scheduled', 'pending_mapping', 'pending_approval', 'approved'],
  edit: ['draft', 'scheduled', 'pending_approval', 'approved'],
  /** An edit, a class drop or a reclassification changed what approval covers: it waits for approval again (or is scheduled when none is needed). */
  reopen: ['scheduled', 'pending_approval', 'approved'],
};

const WHY: Partial<Record<ChangeStatus, string>> = {
  pending_mapping: 'it is waiting for its components to be mapped',
  pending_approval: 'it is waiting for approval',
  rejected: 'it was rejected',
  expired: 'it expired',
  cancelled: 'it was cancelled',
  reported: 'it is reported',
  evaluating: 'it is under surveillance',
  active: 'it is running',
  approved: 'it is approved and not started',
  scheduled: 'it is scheduled',
  draft: 'it is a draft',
};

/** Where the first status of a change (or one whose names were just mapped) lies. */
export function routed(r: Routing): ChangeStatus {
  if (r.gated) return 'pending_approval';
  return r.startNow ? 'active' : 'scheduled';
}

/** `verb` is the word the caller used for the action (`complete` for finish), so a refusal speaks it back. */
export function move(from: ChangeStatus, action: Action, routing: Routing = { gated: false, startNow: false }, verb: string = action.replace('_', ' ')): Move {
  if (!FROM[action].includes(from)) return { ok: false, reason: `cannot ${verb} a change that is ${from}: ${WHY[from]}` };
  switch (action) {
    case 'submit':
    case 'mapped':
    case 'reopen':
      return { ok: true, to: routed(routing) };
    case 'approve':
      return { ok: true, to: 'approved' };
    case 'reject':
      return { ok: true, to: 'rejected' };
    case 'expire':
      return { ok: true, to: 'expired' };
    case 'start':
      return { ok: true, to: 'active' };
    case 'finish':
    case 'abort':
    case 'window_end':
    case 'evaluate':
      return { ok: true, to: 'evaluating' };
    case 'report':
      return { ok: true, to: 'reported' };
    case 'cancel':
      return { ok: true, to: 'cancelled' };
    case 'edit':
      return { ok: true, to: from };
  }
}

export const isFinal = (s: ChangeStatus) => FINAL_STATUSES.includes(s);
