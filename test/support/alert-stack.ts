import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { InjectOptions } from 'fastify';
import { SettableClock } from '../../src/platform/clock.js';
import type { Database } from '../../src/platform/db/database.js';
import { pollUntil } from './peer-process.js';
import { createToken, signedInOwner, testApp, type SignedIn, type TestApp } from './test-app.js';

/**
 * The app as the real-parts alert tests need it: Alertmanager and Prometheus reach it over HTTP,
 * so its pipeline listener listens on loopback, its worker runs (silences, releases and relay
 * sends are jobs), and its clock is the wall clock the peers stamp their alerts with.
 */

/** The wall clock, behind the SettableClock type the test app takes: the peers do not share a test's fake time. */
export class WallClock extends SettableClock {
  override now(): Date {
    return new Date();
  }
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export type AlertStack = {
  t: TestApp;
  owner: SignedIn;
  /** A token with alerts:write only: what Alertmanager and Prometheus send. */
  token: string;
  /** http://127.0.0.1:<port> of the listening pipeline listener. */
  pipelineUrl: string;
  /** A signed-in owner's request on the main listener (settings, the catalogue). */
  session(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: Json; body: string }>;
  /**
   * A pipeline's request on the pipeline listener (changes:write, alerts:read), with a token of its
   * own: a token may make 60 requests a minute, so the tests' polls read through the session and
   * the peers' token is theirs alone.
   */
  pipe(method: 'GET' | 'POST', url: string, payload?: unknown): Promise<{ status: number; json: Json; body: string }>;
  /** Polls GET /api/alerts?… (as the signed-in owner) until `pick` answers something. */
  waitForAlerts<T>(what: string, query: string, pick: (alerts: Json[]) => T | undefined): Promise<T>;
  close(): Promise<void>;
};

/** Starts the test app on `db`, an owner of a new organisation, the catalogue `estate`, and a token. */
export async function startAlertStack(db: Database, opts: { estate?: string; holdReleaseDelayMs?: number; name?: string } = {}): Promise<AlertStack> {
  const t = await testApp(db, { clock: new WallClock(), publicUrl: 'https://changes.example.test', holdReleaseDelayMs: opts.holdReleaseDelayMs });
  const answer = (r: { statusCode: number; body: string }) => {
    let json: Json = {};
    try {
      json = JSON.parse(r.body) as Json;
    } catch {
      json = {};
    }
    return { status: r.statusCode, json, body: r.body };
  };
  try {
    const owner = await signedInOwner(t, opts.name ?? 'Alerts');
    if (opts.estate) {
      const imp = await t.main.inject({ method: 'POST', url: '/api/catalog/imports?format=changeledger&source=cmdb', headers: { ...owner.headers, 'content-type': 'application/yaml' }, payload: opts.estate });
      if (imp.statusCode !== 200) throw new Error(`catalogue import failed: ${imp.statusCode} ${imp.body}`);
    }
    // Approvals are not what these tests are about: a registered change may start at once.
    const approvals = await t.main.inject({ method: 'PUT', url: `/api/organizations/${owner.org.id}/change-settings`, headers: owner.headers, payload: { approvalRequired: 'none' } });
    if (approvals.statusCode !== 200) throw new Error(`change settings failed: ${approvals.statusCode} ${approvals.body}`);
    const token = (await createToken(t, owner, ['alerts:write'], 'alertmanager')).secret;
    const pipeline = (await createToken(t, owner, ['changes:write', 'changes:read', 'alerts:read'], 'pipeline')).secret;
    await t.pipeline.listen({ host: '127.0.0.1', port: 0 });
    const pipelineUrl = `http://127.0.0.1:${(t.pipeline.server.address() as { port: number }).port}`;
    t.services.worker.start();
    const pipe: AlertStack['pipe'] = async (method, url, payload) =>
      answer(await t.pipeline.inject({ method, url, headers: { authorization: `Bearer ${pipeline}` }, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) }));
    const session: AlertStack['session'] = async (method, url, payload, headers) =>
      answer(await t.main.inject({ method, url, headers: { ...owner.headers, ...headers }, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) }));
    return {
      t, owner, token, pipelineUrl, pipe, session,
      waitForAlerts: (what, query, pick) => pollUntil(what, async () => {
        const r = await session('GET', `/api/alerts${query}`);
        if (r.status !== 200) throw new Error(`GET /api/alerts${query}: ${r.status} ${r.body}`);
        return pick(r.json.alerts as Json[]);
      }, { details: () => t.logs.slice(-20).join('') }),
      async close() {
        await t.services.worker.stop();
        await t.close();
      },
    };
  } catch (e) {
    await t.services.worker.stop();
    await t.close();
    throw e;
  }
}

/** One request a tap passed on, and what the app answered it. */
export type Tapped = {
  path: string; headers: IncomingHttpHeaders;
  /** When the tap took it (wall clock). */
  at: Date;
  /** The body as an object (a webhook), or {} */
  json: Json;
  /** The body as a list (API v2 alerts), or [] */
  list: Json[];
  status: number;
  /** What the app answered, parsed. */
  answer: Json;
};

/**
 * A recording relay on loopback in front of the app's pipeline listener: Alertmanager posts to the
 * tap, the tap passes the request on unchanged and answers with the app's own answer, and keeps
 * both. So a test knows Alertmanager's second (repeated) notification was answered, and what
 * intake said of it, without a timed wait.
 */
export async function startTap(target: string): Promise<{ url: string; tapped: Tapped[]; close(): Promise<void> }> {
  const tapped: Tapped[] = [];
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = new Date();
      const raw = Buffer.concat(chunks);
      const { host: _host, connection: _connection, 'transfer-encoding': _te, ...headers } = req.headers;
      const out = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...headers, 'content-length': String(raw.length) } }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          const text = Buffer.concat(body).toString('utf8');
          const parse = (s: string): unknown => {
            try {
              return JSON.parse(s) as unknown;
            } catch {
              return {};
            }
          };
          const sent = parse(raw.toString('utf8'));
          const got = parse(text);
          tapped.push({
            path: req.url ?? '', headers: req.headers, at, status: answer.statusCode ?? 0,
            json: Array.isArray(sent) ? {} : sent as Json, list: Array.isArray(sent) ? sent as Json[] : [],
            answer: Array.isArray(got) ? {} : got as Json,
          });
          res.writeHead(answer.statusCode ?? 502, answer.headers['content-type'] ? { 'content-type': answer.headers['content-type'] } : {}).end(text);
        });
      });
      out.on('error', (err) => res.writeHead(502).end(String(err)));
      out.end(raw);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    tapped,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
