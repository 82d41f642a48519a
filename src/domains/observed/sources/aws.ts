/**
 * AWS CloudTrail: pushed by an EventBridge rule through an API destination (Bearer secret), and
 * pulled with LookupEvents. Both read each CloudTrail record with readCloudTrailRecord.
 */
import { judgeUrlLiteral } from '../../../platform/net/outbound.js';
import { badRequest } from '../../../platform/errors.js';
import { PULLS_ALLOW_PRIVATE, type IntakeAdapter, type IntakeRequest, type Parsed, type PullAdapter } from '../observed-types.js';
import { bearerMatches } from './auth.js';
import { readCloudTrailItems, type RecordItem } from './cloud-aws-batch.js';
import { isObj, str, type Json } from './cloud-fields.js';
import { cloudTrailReader, lookupFailure, readAwsCredential, type LookupPage } from './cloud-trail-client.js';

/** The detail-type EventBridge gives an event CloudTrail delivered for an API call. */
export const CLOUDTRAIL_DETAIL_TYPE = 'AWS API Call via CloudTrail';

const empty = (ignored = 0): Parsed => ({ events: [], ignored, noise: 0, rejected: [] });

/** One EventBridge event: its CloudTrail record, or why it is not one. `at` is '' for a lone event. */
function envelopeItem(e: Json, at: string, index: number): RecordItem | 'ignored' | { field: string; message: string } {
  const f = (x: string) => (at ? `${at}.${x}` : x);
  const type = e['detail-type'];
  if (typeof type !== 'string') return { field: f('detail-type'), message: `is missing: an EventBridge event from CloudTrail has detail-type "${CLOUDTRAIL_DETAIL_TYPE}"` };
  if (type !== CLOUDTRAIL_DETAIL_TYPE) return 'ignored';
  if (!isObj(e.detail)) return { field: f('detail'), message: 'must be the CloudTrail record (a JSON object)' };
  const detail: Json = { ...e.detail };
  // A CloudTrail record may leave its resources empty; the envelope may name them.
  if (!Array.isArray(detail.resources) && Array.isArray(e.resources)) detail.resources = e.resources.map((arn) => (typeof arn === 'string' ? { ARN: arn } : arn));
  return { record: detail, at: f('detail'), index, fallback: { account: str(e.account), region: str(e.region) } };
}

const isRecord = (o: Json) => typeof o.eventSource === 'string' || typeof o.eventName === 'string' || typeof o.eventID === 'string';

/**
 * The body as records: one EventBridge event, an array of them (an input transformer or a pipe
 * batching), a CloudTrail log file `{Records: [...]}`, or one bare CloudTrail record (what a
 * forwarder that unwraps the envelope sends).
 */
export function parseCloudTrailBody(body: unknown): Parsed {
  if (Array.isArray(body)) {
    const items: RecordItem[] = [];
    const out = empty();
    body.forEach((e, i) => {
      if (!isObj(e)) return out.rejected.push({ index: i, field: String(i), message: 'is not an EventBridge event (a JSON object)' });
      const item = envelopeItem(e, String(i), i);
      if (item === 'ignored') out.ignored += 1;
      else if ('record' in item) items.push(item);
      else out.rejected.push({ index: i, ...item });
    });
    const read = readCloudTrailItems(items);
    return { events: read.events, ignored: out.ignored + read.ignored, noise: read.noise, rejected: [...out.rejected, ...read.rejected].sort((a, b) => a.index - b.index) };
  }
  if (!isObj(body)) throw badRequest('The body must be an EventBridge event from CloudTrail, an array of them, or a CloudTrail file {"Records": [...]}', 'body');
  if ('Records' in body) {
    if (!Array.isArray(body.Records)) throw badRequest('Records must be the list of CloudTrail records', 'Records');
    return readCloudTrailItems(body.Records.map((record, i) => ({ record, at: `Records.${i}`, index: i })));
  }
  if ('detail-type' in body || 'detail' in body) {
    const item = envelopeItem(body, '', 0);
    if (item === 'ignored') return empty(1);
    if (!('record' in item)) throw badRequest(`${item.field} ${item.message}`, item.field);
    return loneRecord(readCloudTrailItems([item]));
  }
  if (isRecord(body)) return loneRecord(readCloudTrailItems([{ record: body, at: '', index: 0 }]));
  throw badRequest(`detail-type is missing: an EventBridge event from CloudTrail has detail-type "${CLOUDTRAIL_DETAIL_TYPE}"`, 'detail-type');
}

/** A body of one record that is malformed is a 400 naming its field, not a batch with one bad item. */
function loneRecord(p: Parsed): Parsed {
  const bad = p.rejected[0];
  if (bad) throw badRequest(`${bad.field} ${bad.message}`, bad.field);
  return p;
}

export const awsIntake: IntakeAdapter = {
  kind: 'aws',
  authenticate: bearerMatches,
  parse: (req: IntakeRequest) => parseCloudTrailBody(req.body),
};

/** CloudTrail's own limit on LookupEvents' page size. */
const PAGE_SIZE = 50;
/** Global services (IAM, STS's global endpoint, CloudFront, Route 53, Organizations) log their calls in us-east-1. */
const GLOBAL_REGION = 'us-east-1';
const REGION = /^[a-z]{2}(?:-[a-z]+)+-\d+$/;

/** The regions a pull reads: the connection's own, then us-east-1 for the global services, once each. */
export function pullRegions(config: Record<string, unknown>): string[] {
  const given = Array.isArray(config.regions) ? config.regions : [];
  for (const r of given) if (typeof r !== 'string' || !REGION.test(r)) throw new Error(`"${String(r)}" is not an AWS region name (like eu-west-1)`);
  return [...new Set([...(given as string[]), GLOBAL_REGION])];
}

/** The connection's endpoint, judged before anything is sent: an address literal the guard refuses is refused here too. */
function pullEndpoint(config: Record<string, unknown>, allowLoopback: boolean): string | null {
  const endpoint = config.endpoint;
  if (endpoint === undefined || endpoint === null || endpoint === '') return null;
  if (typeof endpoint !== 'string' || !/^https?:\/\//.test(endpoint)) throw new Error('the CloudTrail endpoint must be an http(s) URL');
  const j = judgeUrlLiteral(endpoint, { allowPrivate: PULLS_ALLOW_PRIVATE, allowLoopback });
  if (j.verdict !== 'ok') throw new Error(`the CloudTrail endpoint is refused: ${j.what}`);
  return endpoint;
}

export const cloudtrailPull: PullAdapter = {
  kind: 'aws',
  async pull(deps, ctx, window) {
    const credential = readAwsCredential(ctx.credential);
    const endpoint = pullEndpoint(ctx.config, deps.allowLoopback);
    const regions = pullRegions(ctx.config);
    if (window.maxRaw <= 0) return empty();
    const items: RecordItem[] = [];
    let raw = 0;
    for (const region of regions) {
      const reader = await cloudTrailReader(deps.outbound, region, credential, endpoint);
      try {
        let token: string | null = null;
        do {
          const page: LookupPage = await reader.page(window.since, window.until, Math.min(PAGE_SIZE, window.maxRaw - raw), token).catch((err: unknown) => {
            throw lookupFailure(region, err);
          });
          for (const e of page.events) {
            const at = `${region}.Events.${raw}.CloudTrailEvent`;
            let record: unknown;
            try {
              record = typeof e.CloudTrailEvent === 'string' ? JSON.parse(e.CloudTrailEvent) : null;
            } catch {
              record = null;
            }
            items.push({ record, at, index: raw, fallback: { region } });
            raw += 1;
          }
          token = page.nextToken;
        } while (token && raw < window.maxRaw);
      } finally {
        reader.close();
      }
      if (raw >= window.maxRaw) break;
    }
    return readCloudTrailItems(items);
  },
};
