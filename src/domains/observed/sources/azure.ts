/**
 * Azure Activity Log: the `records[]` a diagnostic setting streams (to an Event Hub, forwarded by
 * a webhook bridge) and the REST list shape `{value: [...]}`, both with a Bearer secret.
 */
import { badRequest } from '../../../platform/errors.js';
import type { IntakeAdapter, IntakeRequest, Parsed } from '../observed-types.js';
import { bearerMatches } from './auth.js';
import { readAzureEntry } from './cloud-azure-record.js';
import { isObj } from './cloud-fields.js';

export function parseActivityLogBody(body: unknown): Parsed {
  if (!isObj(body)) throw badRequest('The body must be an Activity Log export {"records": [...]} or the REST list {"value": [...]}', 'body');
  const key = 'records' in body ? 'records' : 'value' in body ? 'value' : null;
  if (!key) throw badRequest('records is missing: the body must be an Activity Log export {"records": [...]} or the REST list {"value": [...]}', 'records');
  const list = body[key];
  if (!Array.isArray(list)) throw badRequest(`${key} must be the list of Activity Log entries`, key);
  const out: Parsed = { events: [], ignored: 0, noise: 0, rejected: [] };
  list.forEach((entry, index) => {
    const r = readAzureEntry(entry, `${key}.${index}`);
    if (r.as === 'event') out.events.push(r.event);
    else if (r.as === 'rejected') out.rejected.push({ index, ...r.problem });
    else if (r.as === 'ignored') out.ignored += 1;
    else out.noise += 1;
  });
  return out;
}

export const azureIntake: IntakeAdapter = {
  kind: 'azure',
  authenticate: bearerMatches,
  parse: (req: IntakeRequest) => parseActivityLogBody(req.body),
};
