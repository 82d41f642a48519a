import { isObject, json, startVendorServer, type Reply, type VendorControls } from './vendor-server.js';

/**
 * PagerDuty's Events API v2 (POST /v2/enqueue), replayed on loopback: PagerDuty itself cannot be
 * reached from the tests, so this answers as its documentation says it does —
 * 202 {"status":"success","message":"Event processed","dedup_key":…} for an event it takes,
 * 400 {"status":"invalid event","message":"Event object is invalid","errors":[…]} for one it does not,
 * 429 and 5xx for load. Only what the documentation requires is checked.
 */
export type PagerDutyEventsServer = VendorControls & { eventsUrl: string };

const ACTIONS = ['trigger', 'acknowledge', 'resolve'];
const SEVERITIES = ['critical', 'error', 'warning', 'info'];

function judge(body: unknown): string[] {
  if (!isObject(body)) return ['Event object is invalid'];
  const errors: string[] = [];
  if (typeof body.routing_key !== 'string' || body.routing_key.length !== 32) errors.push("'routing_key' must be 32 characters");
  if (!ACTIONS.includes(body.event_action as string)) errors.push("'event_action' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')");
  if (body.event_action === 'trigger') {
    const p = body.payload;
    if (!isObject(p)) errors.push("'payload' is missing or blank");
    else {
      if (typeof p.summary !== 'string' || p.summary === '') errors.push("'payload.summary' is missing or blank");
      if (typeof p.source !== 'string' || p.source === '') errors.push("'payload.source' is missing or blank");
      if (!SEVERITIES.includes(p.severity as string)) errors.push("'payload.severity' is invalid (must be one of the following: 'critical', 'warning', 'error' or 'info')");
    }
  } else if (typeof body.dedup_key !== 'string' || body.dedup_key === '') errors.push("'dedup_key' is missing or blank");
  return errors;
}

export async function startPagerDutyEvents(): Promise<PagerDutyEventsServer> {
  let n = 0;
  const handle = (r: { path: string; method: string; body: unknown }): Reply => {
    if (r.method !== 'POST' || r.path !== '/v2/enqueue') return json(404, { status: 'not found' });
    const errors = judge(r.body);
    if (errors.length) return json(400, { status: 'invalid event', message: 'Event object is invalid', errors });
    const b = r.body as Record<string, unknown>;
    n += 1;
    return json(202, { status: 'success', message: 'Event processed', dedup_key: typeof b.dedup_key === 'string' ? b.dedup_key : `srv${n.toString().padStart(29, '0')}` });
  };
  const fault = (status: number): Reply => (status === 429 ? json(429, { status: 'throttled', message: 'Requests for this service are arriving too quickly' }) : json(status, { status: 'error', message: 'Internal Server Error' }));
  const server = await startVendorServer(handle, fault);
  return { ...server, eventsUrl: `${server.url}/v2/enqueue` };
}
