/**
 * CloudTrail's LookupEvents through @aws-sdk/client-cloudtrail, with every request the SDK signs
 * sent by our one outbound client (the SSRF guard: each address judged, the socket pinned, no
 * redirect, 10 s). The SDK keeps what it is good at — SigV4 signing, the JSON 1.1 protocol,
 * paging tokens, error types — and never opens a socket of its own.
 */
import { Readable } from 'node:stream';
import type { CloudTrailClientConfig, LookupEventsCommandOutput } from '@aws-sdk/client-cloudtrail';
import type { OutboundClient } from '../../../platform/net/outbound.js';
import { PULLS_ALLOW_PRIVATE } from '../observed-types.js';

type Handler = Extract<NonNullable<CloudTrailClientConfig['requestHandler']>, { handle: unknown }>;
type SdkRequest = Parameters<Handler['handle']>[0];

/** LookupEvents answers up to 50 events a page, each with its record as a string: room for the largest pages. */
const PAGE_BYTES = 4 * 1024 * 1024;

function outboundHandler(outbound: OutboundClient): Handler {
  return {
    async handle(req: SdkRequest) {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(req.query ?? {})) for (const one of Array.isArray(v) ? v : [v]) if (one != null) query.append(k, one);
      const qs = query.toString();
      const url = `${req.protocol}//${req.hostname}${req.port ? `:${req.port}` : ''}${req.path}${qs ? `?${qs}` : ''}`;
      // TextDecoder reads the bytes as bytes: Buffer.from would call the SDK body's valueOf (a string view it warns about).
      const body = typeof req.body === 'string' ? req.body : req.body == null ? undefined : new TextDecoder().decode(req.body as Uint8Array);
      const res = await outbound.request({ method: req.method as 'POST', url, allowPrivate: PULLS_ALLOW_PRIVATE, headers: { ...req.headers }, ...(body === undefined ? {} : { body }), maxResponseBytes: PAGE_BYTES });
      if (res.truncated) throw new Error(`the answer of ${url} was larger than ${PAGE_BYTES / 1024 / 1024} MiB`);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
      return { response: { statusCode: res.status, headers, body: Readable.from([Buffer.from(res.body, 'utf8')]) } as never };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
  };
}

export type AwsCredential = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };

/** The sealed credential as the connection stores it, read back; errors say what is wrong in words. */
export function readAwsCredential(credential: string | null): AwsCredential {
  if (!credential) throw new Error('the connection has no AWS credential: give it an access key (accessKeyId, secretAccessKey and, for temporary keys, sessionToken)');
  let v: unknown;
  try {
    v = JSON.parse(credential);
  } catch {
    throw new Error('the AWS credential is not JSON: it must read {"accessKeyId": …, "secretAccessKey": …, "sessionToken"?: …}');
  }
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  if (typeof o.accessKeyId !== 'string' || o.accessKeyId === '') throw new Error('the AWS credential has no accessKeyId');
  if (typeof o.secretAccessKey !== 'string' || o.secretAccessKey === '') throw new Error('the AWS credential has no secretAccessKey');
  if (o.sessionToken !== undefined && typeof o.sessionToken !== 'string') throw new Error('the AWS credential\'s sessionToken must be text');
  return { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey, ...(typeof o.sessionToken === 'string' ? { sessionToken: o.sessionToken } : {}) };
}

export type LookupPage = { events: NonNullable<LookupEventsCommandOutput['Events']>; nextToken: string | null };

/**
 * A reader of one region's write events, page by page. The SDK (about a sixth of the server's
 * code) is loaded at the first read, so a server without an AWS connection never parses it.
 */
export async function cloudTrailReader(outbound: OutboundClient, region: string, credential: AwsCredential, endpoint: string | null) {
  const { CloudTrailClient, LookupEventsCommand } = await import('./cloud-trail-sdk.js');
  const client = new CloudTrailClient({
    // LookupEvents allows two calls a second per account and region: a throttled page is retried
    // with the SDK's backoff (refusals such as 400/403 never are).
    region, credentials: credential, requestHandler: outboundHandler(outbound), maxAttempts: 4,
    ...(endpoint ? { endpoint } : {}),
  });
  return {
    async page(since: Date, until: Date, maxResults: number, nextToken: string | null): Promise<LookupPage> {
      const out = await client.send(new LookupEventsCommand({
        LookupAttributes: [{ AttributeKey: 'ReadOnly', AttributeValue: 'false' }],
        StartTime: since, EndTime: until, MaxResults: maxResults, ...(nextToken ? { NextToken: nextToken } : {}),
      }));
      return { events: out.Events ?? [], nextToken: out.NextToken ?? null };
    },
    close: () => client.destroy(),
  };
}

/** An SDK or transport error in words, with what AWS said when it answered. */
export function lookupFailure(region: string, err: unknown): Error {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  if (status) return new Error(`CloudTrail in ${region} refused LookupEvents (${status} ${e.name ?? 'error'}): ${e.message ?? 'no message'}`);
  return new Error(`CloudTrail in ${region} could not be read: ${e.message ?? String(err)}`);
}
