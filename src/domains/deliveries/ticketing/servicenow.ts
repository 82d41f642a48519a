import type {
  AdapterContext, ProbeStep, ServiceNowTicketing, StepAnswer, TicketAdapter, TicketChange, TicketClose, TicketStep,
} from './ticket-types.js';
import {
  NO_TICKET_TO_UPDATE, asText, basicAuth, callVendor, clip, isRecord, isSuccess, parseJson, probeCall, probeResult, unanswered, vendorError,
  withChangeLink, withoutTrailingSlash,
} from './ticket-http.js';

/**
 * ServiceNow: one change_request per change through the Table API, one work note per step.
 *
 * Our steps on the out-of-the-box change model (state values of change_request):
 *
 * | step                                   | call  | state asked for                      | also sent                          |
 * |----------------------------------------|-------|--------------------------------------|------------------------------------|
 * | create at change.approved              | POST  | standard: Scheduled (-2)             | the record's fields, work note     |
 * |                                        |       | normal: none (ServiceNow opens New)  |                                    |
 * | create at change.started (no approval) | POST  | standard: Implement (-1)             | the record's fields, work note     |
 * |                                        |       | normal: none (ServiceNow opens New)  |                                    |
 * | change.started                         | PATCH | Implement (-1)                       | work note                          |
 * | change.completed                       | PATCH | Review (0)                           | work note                          |
 * | change.aborted                         | PATCH | Review (0)                           | work note                          |
 * | change.reported, closeOnReport         | PATCH | Closed (3)                           | close_code, close_notes, work note |
 * | change.reported, closeOnReport off     | PATCH | none                                 | work note                          |
 * | change.cancelled, change.expired       | PATCH | Canceled (4)                         | close_notes, work note             |
 *
 * close_code: `unsuccessful` when the outcome is rolled_back (or failed); `successful_issues` when
 * it is partial or surveillance found an impact other than none / unknown; else `successful`.
 *
 * Why this way:
 * - A standard change is pre-approved: ServiceNow's model runs it New → Scheduled → Implement →
 *   Review → Closed without assessment, so we keep it in step with ours from the start.
 * - A normal change carries ServiceNow's own assessment and CAB authorisation. We open it without
 *   a state and let that process run; later steps still ask for Implement / Review / Closed, which
 *   the model grants once CAB has authorised it (Scheduled). Until then the business rule
 *   "Change Model: Check State Transition" aborts the update: the Table API answers 403
 *   `{"error": {"message": "Operation Failed", "detail": "Operation against file 'change_request'
 *   was aborted by Business Rule '…^<sys_id>'. …"}, "status": "failure"}` and saves nothing of it.
 *   Any 403 to an update that asks for a state (a data policy refuses the same way) is therefore
 *   followed by a second PATCH with the work note alone, and the answer notes "state not changed".
 *   An instance that keeps the state silently answers 2xx with the old state: the work note of
 *   that update was saved, so there is no second call, only the note. The step never fails over
 *   the state alone.
 * - Aborted is Review, not Canceled: the work happened and was rolled back, which ServiceNow
 *   records at closure with `unsuccessful`. Canceled is for changes that never started; ServiceNow
 *   refuses to cancel from Review or Closed, which our cancelled / expired steps never ask for.
 *
 * Values go in as actual values (`sysparm_input_display_value=false`): states as numbers, dates as
 * "YYYY-MM-DD HH:MM:SS" in UTC, assignment_group as the group's sys_id.
 */

export const SN_STATES = { new: '-5', assess: '-4', authorize: '-3', scheduled: '-2', implement: '-1', review: '0', closed: '3', canceled: '4' } as const;
const STATE_NAMES: Record<string, string> = {
  '-5': 'New', '-4': 'Assess', '-3': 'Authorize', '-2': 'Scheduled', '-1': 'Implement', '0': 'Review', '3': 'Closed', '4': 'Canceled',
};
export const stateName = (value: string | null): string => (value === null ? 'an unknown state' : STATE_NAMES[value] ?? `state ${value}`);

export type CloseCode = 'successful' | 'successful_issues' | 'unsuccessful';

/** The change_request field short_description holds 160 characters out of the box. */
export const SN_SHORT_DESCRIPTION_MAX = 160;

/** The state a step asks for, or null when the step only writes a work note. */
export function stateForStep(step: Pick<TicketStep, 'action' | 'event'>, s: Pick<ServiceNowTicketing, 'changeType' | 'closeOnReport'>): string | null {
  if (step.action === 'create') {
    if (s.changeType !== 'standard') return null;
    return step.event === 'change.started' ? SN_STATES.implement : SN_STATES.scheduled;
  }
  switch (step.event) {
    case 'change.started': return SN_STATES.implement;
    case 'change.completed': case 'change.aborted': return SN_STATES.review;
    case 'change.reported': return s.closeOnReport ? SN_STATES.closed : null;
    case 'change.cancelled': case 'change.expired': return SN_STATES.canceled;
    case 'change.approved': case 'change.rollback_requested': case 'change.rolled_back': return null;
  }
}

export function closeCode(close: Extract<TicketClose, { reason: 'reported' }>): CloseCode {
  if (close.outcome === 'rolled_back' || close.outcome === 'failed') return 'unsuccessful';
  if (close.outcome === 'partial') return 'successful_issues';
  if (close.impact !== null && close.impact !== 'none' && close.impact !== 'unknown') return 'successful_issues';
  return 'successful';
}

/** "YYYY-MM-DD HH:MM:SS" in UTC, ServiceNow's internal date-time format; null when not a date. */
export function serviceNowDateTime(iso: string | null): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 19).replace('T', ' ');
}

const IMPACT: Record<NonNullable<TicketChange['criticality']>, string> = { critical: '1', important: '2', standard: '3' };

const FIELDS = 'sysparm_fields=sys_id,number,state&sysparm_input_display_value=false&sysparm_exclude_reference_link=true';
const table = (s: ServiceNowTicketing) => `${withoutTrailingSlash(s.instanceUrl)}/api/now/table/change_request`;
const auth = (s: ServiceNowTicketing) => basicAuth(s.username, s.password);

/** `{error: {message, detail}, status: 'failure'}`. */
function snErrors(json: unknown): string[] {
  if (!isRecord(json) || !isRecord(json.error)) return [];
  const message = asText(json.error.message);
  const detail = asText(json.error.detail);
  return [message && detail && detail !== message ? `${message}: ${detail}` : (message ?? detail ?? '')];
}

function failed(status: number, body: string, calls: number): StepAnswer {
  return { status, error: vendorError('ServiceNow', { status, body }, snErrors), calls };
}

const result = (body: string): Record<string, unknown> | null => {
  const json = parseJson(body);
  return isRecord(json) && isRecord(json.result) ? json.result : null;
};
const stateOf = (body: string): string | null => {
  const r = result(body);
  return r ? asText(r.state) : null;
};

/** Why the state model said no, in a few words: the business rule's name when it gave one. */
function refusalReason(status: number, body: string, asked: string): string {
  const json = parseJson(body);
  const said = snErrors(json).join(' ');
  const rule = /aborted by Business Rule '([^'^]+)/.exec(said)?.[1];
  if (rule) return `business rule "${rule}" refused ${stateName(asked)}`;
  return `${stateName(asked)} refused with ${status}${said ? `: ${clip(said, 160)}` : ''}`;
}

async function create(ctx: AdapterContext, s: ServiceNowTicketing, step: TicketStep): Promise<StepAnswer> {
  const c = step.change;
  const state = stateForStep(step, s);
  const record: Record<string, string> = {
    short_description: clip(step.summary, SN_SHORT_DESCRIPTION_MAX),
    description: withChangeLink(step.description, c.links.change).join('\n'),
    type: s.changeType,
    impact: IMPACT[c.criticality ?? 'standard'],
    correlation_id: c.id,
    correlation_display: 'changeledger',
    work_notes: step.text,
  };
  if (s.assignmentGroup) record.assignment_group = s.assignmentGroup;
  const start = serviceNowDateTime(c.deployment.windowStart);
  const end = serviceNowDateTime(c.deployment.windowEnd);
  if (start) record.start_date = start;
  if (end) record.end_date = end;
  if (state !== null) record.state = state;
  const res = await callVendor(ctx, 'POST', `${table(s)}?${FIELDS}`, auth(s), record);
  if (!isSuccess(res.status)) return failed(res.status, res.body, 1);
  const r = result(res.body);
  const sysId = r ? asText(r.sys_id) : null;
  if (!sysId) return { status: res.status, note: `ServiceNow answered ${res.status} without a sys_id: updates cannot reach the change request`, calls: 1 };
  const answer: StepAnswer = {
    status: res.status, calls: 1,
    ticket: { kind: 'servicenow', id: sysId, key: (r && asText(r.number)) ?? sysId, url: `${withoutTrailingSlash(s.instanceUrl)}/nav_to.do?uri=change_request.do?sys_id=${sysId}` },
  };
  const kept = stateOf(res.body);
  if (state !== null && kept !== null && kept !== state) answer.note = `state not changed: ServiceNow kept ${stateName(kept)} (asked for ${stateName(state)})`;
  return answer;
}

async function update(ctx: AdapterContext, s: ServiceNowTicketing, step: TicketStep): Promise<StepAnswer> {
  if (!step.ticket) return NO_TICKET_TO_UPDATE;
  const url = `${table(s)}/${encodeURIComponent(step.ticket.id)}?${FIELDS}`;
  const state = stateForStep(step, s);
  const fields: Record<string, string> = { work_notes: step.text };
  if (state !== null) fields.state = state;
  if (state === SN_STATES.closed && step.close?.reason === 'reported') {
    fields.close_code = closeCode(step.close);
    fields.close_notes = step.text;
  }
  if (state === SN_STATES.canceled) fields.close_notes = step.text;

  const res = await callVendor(ctx, 'PATCH', url, auth(s), fields);
  if (state === null) return isSuccess(res.status) ? { status: res.status, calls: 1 } : failed(res.status, res.body, 1);
  if (isSuccess(res.status)) {
    const kept = stateOf(res.body);
    if (kept === null || kept === state) return { status: res.status, calls: 1 };
    return { status: res.status, note: `state not changed: ServiceNow kept ${stateName(kept)} (asked for ${stateName(state)})`, calls: 1 };
  }
  // 403 is how the Table API reports an update a business rule aborted: nothing was saved.
  if (res.status !== 403) return failed(res.status, res.body, 1);
  const notes = await callVendor(ctx, 'PATCH', url, auth(s), { work_notes: step.text });
  if (!isSuccess(notes.status)) return failed(notes.status, notes.body, 2);
  return { status: notes.status, note: `state not changed: ServiceNow kept ${stateName(stateOf(notes.body))} (${refusalReason(res.status, res.body, state)})`, calls: 2 };
}

export const serviceNowAdapter: TicketAdapter<ServiceNowTicketing> = {
  send: (ctx, s, step) => (step.action === 'create' ? create(ctx, s, step) : update(ctx, s, step)),

  async probe(ctx, s) {
    const name = 'read change requests';
    const res = await probeCall(() => callVendor(ctx, 'GET', `${table(s)}?sysparm_limit=1&sysparm_fields=sys_id,number`, auth(s)));
    let step: ProbeStep;
    if (res instanceof Error) step = unanswered(name, res);
    else if (!isSuccess(res.status)) step = { name, ok: false, status: res.status, detail: vendorError('ServiceNow', res, snErrors) };
    else step = { name, ok: true, status: res.status, detail: `as ${s.username}` };
    return probeResult('servicenow', [step], () => `ServiceNow answered ${step.detail}; the change_request table is readable`);
  },
};
