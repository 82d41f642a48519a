import { request, withSignal } from './client';
import type {
  BeforeState,
  BeforeStateAdded,
  BeforeStateFields,
  BeforeStateInput,
  Capture,
  Rollback,
  RollbackReleased,
  RollbackResult,
  Validation,
} from './rollback-types';
import type { Change } from './types';

// A change's way back: its before-state captures (and the flag writes it made), its rollback
// path and what became of it, and its validation plan with the rows read after the finish.
// Every refusal is the server's, with its field.

const changePath = (id: string, suffix: string): string => `/api/changes/${encodeURIComponent(id)}${suffix}`;

export const rollbackApi = {
  beforeState: (id: string, signal?: AbortSignal): Promise<BeforeState> =>
    request<BeforeState>('GET', changePath(id, '/before-state'), withSignal(signal)),
  /** One capture with its artifact as stored (text byte for byte, JSON canonical). */
  capture: (id: string, captureId: string, signal?: AbortSignal): Promise<Capture> =>
    request<Capture>('GET', changePath(id, `/before-state/${encodeURIComponent(captureId)}`), withSignal(signal)),
  /** Before the start only (409 after); approvals given before it stop counting. */
  addBeforeState: (id: string, body: BeforeStateFields): Promise<BeforeStateAdded> =>
    request<BeforeStateAdded>('POST', changePath(id, '/before-state'), { body: body satisfies BeforeStateInput }),

  rollback: (id: string, signal?: AbortSignal): Promise<Rollback> =>
    request<Rollback>('GET', changePath(id, '/rollback'), withSignal(signal)),
  /** A designated approver, signed in; executed is false while an L3 rollback waits for its second approver. */
  releaseRollback: (id: string, note: string): Promise<RollbackReleased> =>
    request<RollbackReleased>('POST', changePath(id, '/rollback'), { body: note === '' ? {} : { note } }),
  completeRollback: (id: string, result: RollbackResult, notes: string): Promise<{ change: Change }> =>
    request<{ change: Change }>('POST', changePath(id, '/rollback/complete'), { body: notes === '' ? { result } : { result, notes } }),

  validation: (id: string, signal?: AbortSignal): Promise<Validation> =>
    request<Validation>('GET', changePath(id, '/validation'), withSignal(signal)),
};
