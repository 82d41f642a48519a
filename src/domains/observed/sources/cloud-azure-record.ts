/**
 * One Azure Activity Log entry read into an observed event, or the reason it is not one. Pure.
 *
 * Two shapes carry the same entry (Azure Monitor, "Azure Activity Log event schema"):
 * - the resource-log form a diagnostic setting streams to an Event Hub or storage (`records[]`):
 *   time, resourceId, operationName (a string), category, resultType (Start / Accept / Success /
 *   Failure …), resultSignature, callerIpAddress, correlationId, identity {authorization, claims},
 *   level, location, properties;
 * - the REST list (`GET …/providers/Microsoft.Insights/eventtypes/management/values`, `value[]`):
 *   eventDataId, operationName {value, localizedValue}, category {value}, status {value},
 *   subStatus, httpRequest, caller, claims, authorization {action, scope}, eventTimestamp,
 *   resourceId, resourceGroupName, subscriptionId, properties.
 * An operation logs several phases under one correlationId: Started (and Accepted for a
 * long-running one), then Succeeded or Failed. The final phase is the row; the earlier ones are
 * folded into it (noise), so one operation makes one row.
 */
import { createHash } from 'node:crypto';
import type { RecordPrincipal } from '../../changes/change-feed.js';
import { NOT_STORED, type ObservedEvent } from '../observed-types.js';
import { isObj, isoTime, str, type ItemProblem, type Json } from './cloud-fields.js';
import { draftAzureRevert } from './revert-azure.js';

export type AzureReading =
  | { as: 'event'; event: ObservedEvent }
  | { as: 'ignored' | 'noise'; why: string }
  | { as: 'rejected'; problem: ItemProblem };

/** A `{value, localizedValue}` pair of the REST form, or the plain string of the resource-log form. */
const text = (v: unknown): string | null => (isObj(v) ? str(v.value) : str(v));

const WRITE_OP = /\/(write|delete|action)$/i;
const STARTED = new Set(['start', 'started', 'accept', 'accepted', 'in progress', 'inprogress', 'active']);
const SUCCEEDED = new Set(['success', 'succeeded']);
const FAILED = new Set(['failure', 'failed']);

const UPN = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn';
const NAME = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name';
const OBJECT_ID = 'http://schemas.microsoft.com/identity/claims/objectidentifier';
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Refused by Azure RBAC or the resource provider: a 403 anywhere Azure writes the status. */
function isForbidden(e: Json): boolean {
  const props = isObj(e.properties) ? e.properties : {};
  const candidates = [str(e.resultSignature), text(e.subStatus), str(props.statusCode), str(props.httpStatusCode), isObj(e.httpRequest) ? str(e.httpRequest.statusCode) : null];
  return candidates.some((c) => c !== null && /(^|\D)403(\D|$)|forbidden/i.test(c));
}

/**
 * Who did it, from the caller (REST) or the token's claims: a user principal name is a person; an
 * application's token (an appid and no UPN, or a caller that is an object id) is a service.
 */
function azurePrincipal(e: Json): RecordPrincipal {
  const identity = isObj(e.identity) ? e.identity : {};
  const claims = isObj(e.claims) ? e.claims : isObj(identity.claims) ? identity.claims : {};
  const caller = str(e.caller);
  const upn = str(claims[UPN]) ?? (caller && caller.includes('@') ? caller : null);
  const objectId = str(claims[OBJECT_ID]) ?? (caller && GUID.test(caller) ? caller : null);
  const appId = str(claims.appid);
  const detail: Record<string, string> = {};
  if (upn) detail.upn = upn;
  if (objectId) detail.objectId = objectId;
  if (appId) detail.appId = appId;
  const displayName = str(claims.name);
  if (upn) return { kind: 'person', name: upn, id: objectId ?? upn, detail: displayName ? { ...detail, displayName } : detail };
  if (appId || objectId) return { kind: 'service', name: str(claims[NAME]) ?? appId ?? objectId!, id: objectId ?? appId, detail };
  return { kind: 'unknown', name: caller ?? 'unknown', id: null, detail };
}

function resourceParts(resourceId: string | null): { subscription?: string; resourceGroup?: string; name: string | null } {
  if (!resourceId) return { name: null };
  const sub = /\/subscriptions\/([^/]+)/i.exec(resourceId)?.[1];
  const rg = /\/resourceGroups\/([^/]+)/i.exec(resourceId)?.[1];
  const name = resourceId.replace(/\/+$/, '').split('/').pop() || null;
  return { ...(sub ? { subscription: sub } : {}), ...(rg ? { resourceGroup: rg } : {}), name };
}

/**
 * Writes whose request body carries a secret's value or an app's settings: the values become
 * [not stored], the keys stay (as for CloudTrail's Parameter Store or Lambda environment).
 */
const SECRET_BODY_OPS = /^microsoft\.keyvault\/vaults\/secrets\/write$|^microsoft\.web\/sites(\/slots)?\/config\/write$|^microsoft\.appconfiguration\/configurationstores\/keyvalues\/write$/i;

function storedRequestBody(op: string, body: string | null): string | null {
  if (!body || !SECRET_BODY_OPS.test(op)) return body;
  try {
    const parsed = JSON.parse(body) as unknown;
    if (isObj(parsed) && isObj(parsed.properties)) {
      return JSON.stringify({ ...parsed, properties: Object.fromEntries(Object.keys(parsed.properties).map((k) => [k, NOT_STORED])) });
    }
  } catch {
    // Not JSON: nothing of it can be kept safely.
  }
  return NOT_STORED;
}

/** The resource-log form has no eventDataId: the same phase of the same operation always hashes the same. */
function derivedId(e: Json, op: string, resourceId: string | null, phase: string): string | null {
  const correlationId = str(e.correlationId);
  const time = str(e.time);
  if (!correlationId || !time) return null;
  const key = [correlationId, op.toLowerCase(), (resourceId ?? '').toLowerCase(), phase.toLowerCase(), time].join('\n');
  return `az-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

export function readAzureEntry(entry: unknown, at: string): AzureReading {
  if (!isObj(entry)) return { as: 'rejected', problem: { field: at, message: 'is not an Activity Log entry (a JSON object)' } };
  const e: Json = entry;
  const field = (f: string) => `${at}.${f}`;
  const rest = 'eventDataId' in e || isObj(e.operationName);
  const category = text(e.category);
  if (category && !/^(administrative|write|delete|action)$/i.test(category)) return { as: 'ignored', why: `${category} is not an Administrative entry` };
  const op = text(e.operationName);
  if (!op) return { as: 'rejected', problem: { field: field('operationName'), message: 'is missing: an Activity Log entry names its operation (Microsoft.Compute/virtualMachines/write …)' } };
  if (!WRITE_OP.test(op)) return { as: 'ignored', why: 'not a write, delete or action' };

  const phase = text(e.status) ?? str(e.resultType);
  if (!phase) return { as: 'rejected', problem: { field: field(rest ? 'status' : 'resultType'), message: 'is missing: it says whether the operation started, succeeded or failed' } };
  const p = phase.toLowerCase();
  const denied = isForbidden(e);
  if (!denied && STARTED.has(p)) return { as: 'noise', why: 'an earlier phase of an operation; its Succeeded or Failed entry is the row' };
  if (!denied && FAILED.has(p)) return { as: 'noise', why: 'the operation failed and changed nothing' };
  if (!denied && !SUCCEEDED.has(p)) return { as: 'ignored', why: `phase ${phase}` };

  const resourceId = str(e.resourceId) ?? (isObj(e.authorization) ? str(e.authorization.scope) : null) ?? (isObj(e.identity) && isObj(e.identity.authorization) ? str(e.identity.authorization.scope) : null);
  const eventId = str(e.eventDataId) ?? (isObj(e.properties) ? str(e.properties.eventDataId) : null) ?? (rest ? null : derivedId(e, op, resourceId, phase));
  if (!eventId) return { as: 'rejected', problem: { field: field(rest ? 'eventDataId' : 'correlationId'), message: rest ? 'is missing: it is the id of the entry, the key that keeps a re-sent one from being recorded twice' : 'and time are needed to know the entry again when it is re-sent' } };
  const occurredAt = isoTime(e.eventTimestamp ?? e.time);
  if (!occurredAt) return { as: 'rejected', problem: { field: field(rest ? 'eventTimestamp' : 'time'), message: `is not a time (${JSON.stringify(e.eventTimestamp ?? e.time ?? null)})` } };

  const parts = resourceParts(resourceId);
  const props = isObj(e.properties) ? e.properties : {};
  const requestBody = storedRequestBody(op, str(props.requestbody) ?? str(props.requestBody));
  const region = str(e.location);
  const location: ObservedEvent['location'] = {};
  const subscription = parts.subscription ?? str(e.subscriptionId);
  if (subscription) location.subscription = subscription;
  const rg = parts.resourceGroup ?? str(e.resourceGroupName);
  if (rg) location.resourceGroup = rg;
  if (region && region.toLowerCase() !== 'global') location.region = region;
  const params: Json = {};
  for (const k of ['statusCode', 'serviceRequestId', 'entity', 'message']) if (str(props[k])) params[k] = props[k];
  if (requestBody) params.requestbody = requestBody;
  const errorCode = denied ? str(e.resultSignature) ?? str(props.statusCode) ?? text(e.subStatus) ?? '403' : null;
  // Microsoft.Compute/virtualMachines/write → write virtualMachines; Microsoft.Web/sites/restart/action → restart sites.
  const segs = op.split('/');
  const isAction = segs[segs.length - 1]!.toLowerCase() === 'action' && segs.length > 3;
  const verb = (isAction ? segs[segs.length - 2]! : segs[segs.length - 1]!).toLowerCase();
  const type = segs[segs.length - (isAction ? 3 : 2)] ?? '';
  return {
    as: 'event',
    event: {
      eventId, kind: 'cloud_write', occurredAt,
      title: `${denied ? 'Denied: ' : ''}${verb} ${type}${parts.name && parts.name.toLowerCase() !== type.toLowerCase() ? ` ${parts.name}` : ''}`,
      principal: azurePrincipal(e), action: op, resource: resourceId, resourceName: null, location,
      serviceHint: null, repo: null, diff: requestBody, params: Object.keys(params).length > 0 ? params : null,
      // The portal opens a resource by its id; a deleted one shows its activity log there still.
      link: resourceId && resourceId.startsWith('/') ? `https://portal.azure.com/#resource${resourceId}` : null,
      denied, errorCode, outcome: denied ? 'failed' : 'succeeded', changeRef: null, capBucket: null,
      revert: denied ? null : draftAzureRevert({ operation: op, resourceId, requestBody }),
    },
  };
}
