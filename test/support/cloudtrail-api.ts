import { createServer, type Server } from 'node:http';

/**
 * A loopback stand-in for AWS CloudTrail's LookupEvents, which cannot be reached from here. It
 * answers the way the CloudTrail API Reference documents the action
 * (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_LookupEvents.html) over the
 * AWS JSON 1.1 protocol the SDK speaks (Smithy's awsJson1_1: POST /, Content-Type
 * application/x-amz-json-1.1, the action in X-Amz-Target):
 * - request: X-Amz-Target com.amazonaws.cloudtrail.v20131101.CloudTrail_20131101.LookupEvents, body
 *   {LookupAttributes: [{AttributeKey, AttributeValue}], StartTime, EndTime (epoch seconds),
 *   MaxResults (≤ 50), NextToken};
 * - answer 200: {Events: [{EventId, EventName, ReadOnly, AccessKeyId, EventTime (epoch seconds),
 *   EventSource, Username, Resources: [{ResourceType, ResourceName}], CloudTrailEvent (the record as a
 *   JSON string)}], NextToken} — newest first, NextToken absent on the last page;
 * - errors: the status with {"__type": "<ErrorCode>", "message": "…"} and x-amzn-ErrorType.
 * The region is read from the SigV4 credential scope of the Authorization header, so one server
 * plays every region; every request is recorded so a test asserts what was asked.
 */

export type LookupRequest = {
  target: string | null; contentType: string | null; region: string | null; accessKeyId: string | null; securityToken: string | null;
  body: { LookupAttributes?: Array<{ AttributeKey: string; AttributeValue: string }>; StartTime?: number; EndTime?: number; MaxResults?: number; NextToken?: string };
};

export type CloudTrailApi = {
  url: string;
  requests: LookupRequest[];
  /** The records a region holds (CloudTrail records, as they would be logged). */
  hold(region: string, ...records: Array<Record<string, unknown>>): void;
  /** Answer every request with this error (or only the next `times` ones), or null to answer again. */
  fail(error: { status: number; type: string; message: string } | null, times?: number): void;
  close(): Promise<void>;
};

/**
 * The target the API reference and botocore's model (targetPrefix) name, and the short form
 * `<service shape>.<operation>` that @aws-sdk/client-cloudtrail 3.1137 sends (its serviceTarget
 * "CloudTrail_20131101"): the service answers both, so this stand-in does too.
 */
const TARGETS = new Set(['com.amazonaws.cloudtrail.v20131101.CloudTrail_20131101.LookupEvents', 'CloudTrail_20131101.LookupEvents']);

function asLookupEvent(r: Record<string, unknown>) {
  const u = (r.userIdentity ?? {}) as Record<string, unknown>;
  const resources = Array.isArray(r.resources) ? (r.resources as Array<Record<string, unknown>>).map((x) => ({ ResourceType: x.type, ResourceName: x.ARN })) : [];
  return {
    EventId: r.eventID, EventName: r.eventName, ReadOnly: String(r.readOnly ?? false), AccessKeyId: u.accessKeyId,
    EventTime: Date.parse(String(r.eventTime)) / 1000, EventSource: r.eventSource, Username: u.userName ?? u.principalId,
    Resources: resources, CloudTrailEvent: JSON.stringify(r),
  };
}

export async function startCloudTrailApi(): Promise<CloudTrailApi> {
  const held = new Map<string, Array<Record<string, unknown>>>();
  const requests: LookupRequest[] = [];
  let failure: { status: number; type: string; message: string } | null = null;
  let failuresLeft = Infinity;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown, type?: string) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': 'e1a8e0f2-0000-4000-8000-000000000000', ...(type ? { 'x-amzn-errortype': type } : {}) });
        res.end(JSON.stringify(body));
      };
      const auth = String(req.headers.authorization ?? '');
      const scope = /Credential=([^/]+)\/\d{8}\/([^/]+)\/cloudtrail\/aws4_request/.exec(auth);
      let body: LookupRequest['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as LookupRequest['body'];
      } catch {
        return send(400, { __type: 'SerializationException', message: 'Start of structure or map found where not expected.' }, 'SerializationException');
      }
      const target = (req.headers['x-amz-target'] as string | undefined) ?? null;
      requests.push({ target, contentType: (req.headers['content-type'] as string | undefined) ?? null, region: scope?.[2] ?? null, accessKeyId: scope?.[1] ?? null, securityToken: (req.headers['x-amz-security-token'] as string | undefined) ?? null, body });
      if (failure && failuresLeft > 0) {
        failuresLeft -= 1;
        return send(failure.status, { __type: failure.type, message: failure.message }, failure.type);
      }
      if (!target || !TARGETS.has(target)) return send(400, { __type: 'UnknownOperationException', message: `Unknown operation ${target ?? ''}` }, 'UnknownOperationException');
      if (!scope) return send(403, { __type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' }, 'MissingAuthenticationTokenException');
      const max = body.MaxResults ?? 50;
      if (max < 1 || max > 50) return send(400, { __type: 'InvalidMaxResultsException', message: 'MaxResults must be between 1 and 50.' }, 'InvalidMaxResultsException');
      const since = (body.StartTime ?? 0) * 1000;
      const until = (body.EndTime ?? Number.MAX_SAFE_INTEGER / 1000) * 1000;
      const attr = body.LookupAttributes?.[0];
      const matching = (held.get(scope[2]!) ?? [])
        .filter((r) => { const t = Date.parse(String(r.eventTime)); return t >= since && t <= until; })
        .filter((r) => !attr || attr.AttributeKey !== 'ReadOnly' || String(r.readOnly ?? false) === attr.AttributeValue)
        .sort((a, b) => Date.parse(String(b.eventTime)) - Date.parse(String(a.eventTime)));
      const start = body.NextToken ? Number(Buffer.from(body.NextToken, 'base64').toString('utf8').replace(/^page:/, '')) : 0;
      const page = matching.slice(start, start + max);
      const next = start + max < matching.length ? Buffer.from(`page:${start + max}`).toString('base64') : undefined;
      send(200, { Events: page.map(asLookupEvent), ...(next ? { NextToken: next } : {}) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    hold(region, ...records) {
      held.set(region, [...(held.get(region) ?? []), ...records]);
    },
    fail(error, times = Infinity) {
      failure = error;
      failuresLeft = times;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
