import { randomBytes } from 'node:crypto';
import { basicCredentials, isObject, json, startVendorServer, type RecordedRequest, type Reply, type VendorControls } from './vendor-server.js';

/**
 * A ServiceNow instance's Table API for change_request: Basic auth, `{result: …}` answers with
 * actual values (states as "-5" … "4"), `{error: {message, detail}, status: "failure"}` for
 * refusals, sysparm_fields honoured. It keeps the records and enforces a simplified out-of-the-box
 * change model:
 * - a normal (or emergency) change in New / Assess / Authorize refuses Implement, Review and
 *   Closed: the business rule "Change Model: Check State Transition" aborts the whole update,
 *   which the Table API answers with 403 "Operation Failed" — nothing of it is saved;
 * - Canceled is allowed from any state before Review (ServiceNow's documentation: not from Review
 *   or Closed); otherwise a standard change moves freely;
 * - a normal change is always inserted in New, whatever state the insert asked for.
 * `keepStateSilently` switches the refusal to the other behaviour instances show: the update is
 * saved except its state, and the answer is 200.
 */

export type ChangeRecord = {
  sys_id: string; number: string; state: string; type: string; short_description: string; description: string; impact: string;
  assignment_group: string; correlation_id: string; correlation_display: string; start_date: string; end_date: string;
  close_code: string; close_notes: string; approval: string;
  /** Journal entries, oldest first: the Table API never reads a journal back through its field. */
  workNotes: string[];
};

export type ServiceNowServer = VendorControls & {
  records: ChangeRecord[];
  /** What CAB or a person in ServiceNow does: put a record in a state without the model's checks. */
  setState(sysId: string, state: string): void;
  /** Refuse a state jump by keeping the state and answering 200, instead of aborting with 403. */
  keepStateSilently(on: boolean): void;
};

const TABLE = '/api/now/table/change_request';
export const STATE_MODEL_RULE = 'Change Model: Check State Transition';
const WRITABLE = ['state', 'type', 'short_description', 'description', 'impact', 'assignment_group', 'correlation_id', 'correlation_display', 'start_date', 'end_date', 'close_code', 'close_notes'] as const;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const failure = (status: number, message: string, detail: string | null): Reply => json(status, { error: { message, detail }, status: 'failure' });

export async function startServiceNowServer(o: { username: string; password: string }): Promise<ServiceNowServer> {
  const records: ChangeRecord[] = [];
  let silent = false;
  const ruleSysId = randomBytes(16).toString('hex');

  const view = (rec: ChangeRecord, r: RecordedRequest): Record<string, unknown> => {
    const full: Record<string, unknown> = { ...rec, work_notes: '', sys_class_name: 'change_request', active: String(!['3', '4'].includes(rec.state)) };
    delete full.workNotes;
    const fields = r.query.get('sysparm_fields');
    if (!fields) return full;
    return Object.fromEntries(fields.split(',').filter((f) => f in full).map((f) => [f, full[f]]));
  };

  /** null when the move is allowed, else the refusal the business rule causes. */
  const refusal = (rec: ChangeRecord, to: string): Reply | null => {
    if (to === rec.state) return null;
    const aborted = failure(403, 'Operation Failed', `Operation against file 'change_request' was aborted by Business Rule '${STATE_MODEL_RULE}^${ruleSysId}'. Business Rule Stack:${STATE_MODEL_RULE}`);
    // ServiceNow's documentation: a change in Review or Closed cannot be canceled; anything before can.
    if (to === '4') return ['0', '3'].includes(rec.state) ? aborted : null;
    if (rec.type === 'standard') return null;
    return ['-5', '-4', '-3'].includes(rec.state) && ['-1', '0', '3'].includes(to) ? aborted : null;
  };

  /** Data policies and field formats, checked the way the instance reports them (403 "Operation Failed"). */
  const invalid = (fields: Record<string, unknown>, inserting: boolean): Reply | null => {
    const problems: string[] = [];
    if (inserting && (typeof fields.short_description !== 'string' || !fields.short_description.trim())) problems.push('Short description');
    if (fields.state === '3') {
      if (!fields.close_code) problems.push('Close code');
      if (!fields.close_notes) problems.push('Close notes');
    }
    if (problems.length) return failure(403, 'Operation Failed', `Data Policy Exception: \n\tThe following fields are mandatory: ${problems.join(', ')}`);
    for (const f of ['start_date', 'end_date'] as const) {
      if (fields[f] !== undefined && !DATE_TIME.test(String(fields[f]))) return failure(400, 'Invalid date/time', `${f}: ${String(fields[f])}`);
    }
    return null;
  };

  const handle = (r: RecordedRequest): Reply => {
    const c = basicCredentials(r.headers.authorization);
    if (!c || c.user !== o.username || c.password !== o.password) return failure(401, 'User Not Authenticated', 'Required to provide Auth information');
    const table = /^\/api\/now\/table\/([^/]+)(?:\/([^/]+))?$/.exec(r.path);
    if (!table) return failure(400, 'Requested URI does not represent any resource', `${r.path}`);
    if (table[1] !== 'change_request') return failure(400, `Invalid table ${table[1]}`, null);
    const sysId = table[2];
    if (r.method !== 'GET' && !isObject(r.body)) return failure(400, 'Exception while reading request', 'The payload is not valid JSON.');
    const body = (r.body ?? {}) as Record<string, unknown>;

    if (r.method === 'GET' && !sysId) {
      const limit = Number(r.query.get('sysparm_limit') ?? '10000');
      return json(200, { result: records.slice(0, limit).map((rec) => view(rec, r)) }, { 'x-total-count': String(records.length) });
    }
    if (r.method === 'POST' && !sysId) {
      const bad = invalid(body, true);
      if (bad) return bad;
      const rec: ChangeRecord = {
        sys_id: randomBytes(16).toString('hex'), number: `CHG${String(30001 + records.length).padStart(7, '0')}`, state: '-5', type: 'normal',
        short_description: '', description: '', impact: '3', assignment_group: '', correlation_id: '', correlation_display: '', start_date: '', end_date: '',
        close_code: '', close_notes: '', approval: 'not requested', workNotes: [],
      };
      for (const f of WRITABLE) if (body[f] !== undefined) rec[f] = String(body[f]);
      // The change model inserts a normal change in New: its own assessment runs from there.
      if (rec.type !== 'standard') rec.state = '-5';
      if (typeof body.work_notes === 'string' && body.work_notes) rec.workNotes.push(body.work_notes);
      records.push(rec);
      return json(201, { result: view(rec, r) }, { location: `${TABLE}/${rec.sys_id}` });
    }

    const rec = sysId ? records.find((x) => x.sys_id === sysId) : undefined;
    if (!rec) return failure(404, 'No Record found', "Record doesn't exist or ACL restricts the record retrieval");
    if (r.method === 'GET') return json(200, { result: view(rec, r) });
    if (r.method !== 'PATCH' && r.method !== 'PUT') return failure(405, 'Method not Supported', `${r.method} is not supported`);

    const to = body.state === undefined ? rec.state : String(body.state);
    const bad = invalid({ ...body, state: to === rec.state ? undefined : to, close_code: body.close_code ?? rec.close_code, close_notes: body.close_notes ?? rec.close_notes }, false);
    if (bad) return bad;
    const refused = refusal(rec, to);
    if (refused && !silent) return refused;
    for (const f of WRITABLE) if (body[f] !== undefined && !(f === 'state' && refused)) rec[f] = String(body[f]);
    if (typeof body.work_notes === 'string' && body.work_notes) rec.workNotes.push(body.work_notes);
    return json(200, { result: view(rec, r) });
  };

  const server = await startVendorServer(handle, (status) => (status === 429
    ? json(429, { error: { message: 'Rate limit exceeded', detail: 'Too many requests for this user; retry after the interval in Retry-After' }, status: 'failure' }, { 'retry-after': '60' })
    : status >= 500
      ? json(status, { error: { message: 'Instance unavailable', detail: 'The instance is hibernating or under maintenance' }, status: 'failure' })
      : failure(status, 'Operation Failed', null)));

  return Object.assign(server, {
    records,
    setState(id: string, state: string) {
      const rec = records.find((x) => x.sys_id === id);
      if (!rec) throw new Error(`no change request ${id}`);
      rec.state = state;
    },
    keepStateSilently(on: boolean) {
      silent = on;
    },
  });
}
