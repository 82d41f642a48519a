import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { AI_BUDGET_MS } from './domains/evidence/ai-limits.js';
import { DEFAULT_PGLITE_SHARED_BUFFERS_MB, DEFAULT_POOL_SIZE } from './platform/db/database.js';
import type { MailConfig } from './platform/mail/mailer.js';
import { packageRoot } from './platform/paths.js';

/**
 * poolSize: connections one process keeps to a PostgreSQL server (CHANGELEDGER_DB_POOL_SIZE); unused on the embedded database.
 * pgliteSharedBuffersMb: the embedded database's shared buffers (CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB); unused on PostgreSQL.
 * preparedStatements: keep statements prepared on PostgreSQL's connections (CHANGELEDGER_DB_PREPARED_STATEMENTS, on
 *   by default; off for a connection pooler that cannot carry them); unused on the embedded database.
 */
export type StoreConfig = { dataDir: string; databaseUrl: string | null; poolSize: number; pgliteSharedBuffersMb: number; preparedStatements: boolean };

/** What one `serve` process does: everything, the listeners only, or the job worker only. */
export const SERVE_ROLES = ['all', 'web', 'worker'] as const;
export type ServeRole = (typeof SERVE_ROLES)[number];

export type ServeConfig = StoreConfig & {
  /**
   * all: both listeners and the job worker; web: the listeners, no jobs; worker: the timers and
   * the outbox, with only /healthz, /readyz and /metrics on the main port. web and worker need
   * PostgreSQL: the embedded database serves one process.
   */
  role: ServeRole;
  host: string;
  port: number;
  pipelineHost: string;
  pipelinePort: number;
  /** The address people reach the UI at; sign-in links are built on it. */
  publicUrl: string | null;
  secureCookies: boolean;
  orgName: string;
  ownerEmail: string;
  workerPollMs: number;
  /** Let outbound posts reach loopback and private networks (an on-premises chat server). */
  outboundAllowPrivate: boolean;
  /** Where e-mail goes; null: every e-mail is skipped with a log line. */
  mail: MailConfig | null;
  /** The name of the checkpoint key, and the start of each ledger's origin (`name/org_…`). */
  checkpointName: string;
  /** Where each new signed checkpoint is also POSTed; null: nowhere. */
  checkpointWitnessUrl: string | null;
  /**
   * The reverse proxies (addresses or CIDR ranges) whose X-Forwarded-For is believed; empty: the
   * client is the connection's peer, and the header is ignored.
   */
  trustProxy: readonly string[];
  /**
   * TEST ONLY (CHANGELEDGER_TEST_ONLY_HOLD_RELEASE_DELAY_MS): shortens the five minutes between a
   * change's finish and the release of its alert hold, so end-to-end tests need not wait. Null: the
   * product's five minutes. Never set it in production.
   */
  testOnlyHoldReleaseDelayMs: number | null;
  /**
   * TEST ONLY (CHANGELEDGER_TEST_ONLY_AI_BUDGET_MS): a shorter budget than the AI assessment's two
   * minutes, so a test of a model that never answers need not wait. Null: the product's budget.
   */
  testOnlyAiBudgetMs: number | null;
};

export const version: string = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

export function storeConfig(o: { data?: string; databaseUrl?: string }, env = process.env): StoreConfig {
  return Object.freeze({
    dataDir: resolve(o.data ?? env.CHANGELEDGER_DATA ?? './data'),
    databaseUrl: o.databaseUrl ?? env.DATABASE_URL ?? null,
    poolSize: wholeNumber(env, 'CHANGELEDGER_DB_POOL_SIZE', { dflt: DEFAULT_POOL_SIZE, max: 1000, unit: 'connections' }),
    pgliteSharedBuffersMb: wholeNumber(env, 'CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB', { dflt: DEFAULT_PGLITE_SHARED_BUFFERS_MB, max: 4096, unit: 'MiB' }),
    preparedStatements: onOrOff(env, 'CHANGELEDGER_DB_PREPARED_STATEMENTS', true),
  });
}

/** A variable that is on or off; its default when unset or empty. */
function onOrOff(env: NodeJS.ProcessEnv, name: string, dflt: boolean): boolean {
  const text = env[name];
  if (text === undefined || text === '') return dflt;
  if (text === 'on' || text === 'off') return text === 'on';
  throw new Error(`${name} must be on or off, got "${text}"`);
}

/** A variable holding a whole number from 1 to `max`; its default when unset or empty. */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, o: { dflt: number; max: number; unit: string }): number {
  const text = env[name];
  if (text === undefined || text === '') return o.dflt;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > o.max) throw new Error(`${name} must be a whole number of ${o.unit} from 1 to ${o.max}, got "${text}"`);
  return n;
}

function port(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number (0–65535), got "${text}"`);
  return n;
}

/**
 * SMTP from `--smtp-url` / CHANGELEDGER_SMTP_URL (smtp:// with STARTTLS when offered, smtps:// for
 * TLS from the start; nodemailer options as query parameters) and the sender from `--mail-from` /
 * CHANGELEDGER_MAIL_FROM — by default the URL's user name when it is an address. Errors never
 * repeat the URL: it may hold a password.
 */
export function mailConfig(o: Record<string, string | undefined>, env = process.env): MailConfig | null {
  const smtpUrl = o.smtpUrl ?? (env.CHANGELEDGER_SMTP_URL || undefined);
  if (smtpUrl === undefined) return null;
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new Error('--smtp-url (CHANGELEDGER_SMTP_URL) is not a URL; use smtp://user:password@host:587 or smtps://…@host:465');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
    throw new Error(`--smtp-url (CHANGELEDGER_SMTP_URL) must be smtp://… or smtps://… with a host, got a ${url.protocol} URL`);
  }
  let user = url.username;
  try {
    user = decodeURIComponent(user);
  } catch {
    // A malformed escape stays as written; it is then no address, and --mail-from is asked for.
  }
  const from = o.mailFrom ?? (env.CHANGELEDGER_MAIL_FROM || undefined) ?? (user.includes('@') ? user : undefined);
  if (from === undefined) throw new Error('set --mail-from (CHANGELEDGER_MAIL_FROM), the sender of e-mails, e.g. "changeledger <changes@acme.com>"');
  if (!/^[^\s@<>]+@[^\s@<>]+$|<[^\s@<>]+@[^\s@<>]+>$/.test(from.trim())) throw new Error(`--mail-from must be an address or "Name <address>", got "${from}"`);
  return Object.freeze({ smtpUrl, from: from.trim() });
}

/**
 * `--trust-proxy 10.0.0.5,10.1.0.0/16` / CHANGELEDGER_TRUST_PROXY: only named proxies, never
 * "trust everyone", since a believed X-Forwarded-For decides whose sign-ins are throttled.
 */
export function trustProxyConfig(text: string | undefined): readonly string[] {
  if (text === undefined || text.trim() === '') return Object.freeze([]);
  const entries = text.split(',').map((e) => e.trim()).filter((e) => e !== '');
  for (const entry of entries) {
    const [addr = '', bits, ...rest] = entry.split('/');
    const family = isIP(addr);
    const max = family === 4 ? 32 : 128;
    const okBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
    if (family === 0 || rest.length > 0 || !okBits) {
      throw new Error(`--trust-proxy takes addresses or CIDR ranges separated by commas (10.0.0.5,10.1.0.0/16), got "${entry}"`);
    }
  }
  return Object.freeze(entries);
}

export function serveConfig(o: Record<string, string | undefined>, env = process.env): ServeConfig {
  const publicUrl = o.publicUrl ?? env.CHANGELEDGER_PUBLIC_URL ?? null;
  if (publicUrl !== null && !/^https?:\/\/[^\s/]+/.test(publicUrl)) throw new Error(`--public-url must be an http(s) URL, got "${publicUrl}"`);
  const role = o.role ?? env.CHANGELEDGER_ROLE ?? 'all';
  if (!(SERVE_ROLES as readonly string[]).includes(role)) throw new Error(`--role must be all, web or worker, got "${role}"`);
  const store = storeConfig(o, env);
  if (role !== 'all' && !store.databaseUrl) {
    throw new Error(`--role ${role} needs PostgreSQL (--database-url or DATABASE_URL): the embedded database serves one process, so it runs everything (--role all)`);
  }
  return Object.freeze({
    ...store,
    role: role as ServeRole,
    host: o.host ?? env.HOST ?? 'localhost',
    port: port(o.port ?? env.PORT ?? '8080', '--port'),
    pipelineHost: o.pipelineHost ?? env.PIPELINE_HOST ?? 'localhost',
    pipelinePort: port(o.pipelinePort ?? env.PIPELINE_PORT ?? '4320', '--pipeline-port'),
    publicUrl: publicUrl?.replace(/\/+$/, '') ?? null,
    secureCookies: (publicUrl ?? '').startsWith('https://'),
    orgName: o.orgName ?? env.CHANGELEDGER_ORG_NAME ?? 'My organisation',
    ownerEmail: o.ownerEmail ?? env.CHANGELEDGER_OWNER_EMAIL ?? 'owner@localhost',
    workerPollMs: 1_000,
    outboundAllowPrivate: (env.CHANGELEDGER_OUTBOUND_ALLOW_PRIVATE ?? '') === '1',
    mail: mailConfig(o, env),
    checkpointName: checkpointName(env, publicUrl),
    checkpointWitnessUrl: checkpointWitnessUrl(env),
    trustProxy: trustProxyConfig(o.trustProxy ?? env.CHANGELEDGER_TRUST_PROXY),
    testOnlyHoldReleaseDelayMs: testOnlyReleaseDelay(env.CHANGELEDGER_TEST_ONLY_HOLD_RELEASE_DELAY_MS),
    testOnlyAiBudgetMs: testOnlyAiBudget(env.CHANGELEDGER_TEST_ONLY_AI_BUDGET_MS),
  });
}

/**
 * CHANGELEDGER_CHECKPOINT_NAME, else the host of the public URL, else "changeledger": the name in
 * each checkpoint's signature line, and the start of its origin. Keep it once checkpoints are out.
 */
export function checkpointName(env: NodeJS.ProcessEnv, publicUrl: string | null): string {
  const name = env.CHANGELEDGER_CHECKPOINT_NAME || (publicUrl ? new URL(publicUrl).host : 'changeledger');
  if (!/^[A-Za-z0-9._:/-]{1,200}$/.test(name)) throw new Error(`CHANGELEDGER_CHECKPOINT_NAME must be letters, digits and . _ : / - (no spaces, no +), got "${name}"`);
  return name;
}

function checkpointWitnessUrl(env: NodeJS.ProcessEnv): string | null {
  const url = env.CHANGELEDGER_CHECKPOINT_WITNESS_URL || null;
  if (url !== null && !/^https?:\/\/[^\s/]+/.test(url)) throw new Error(`CHANGELEDGER_CHECKPOINT_WITNESS_URL must be an http(s) URL, got "${url}"`);
  return url;
}

function testOnlyAiBudget(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > AI_BUDGET_MS) throw new Error(`CHANGELEDGER_TEST_ONLY_AI_BUDGET_MS (test only) must be a whole number of milliseconds from 1 to ${AI_BUDGET_MS}, got "${raw}"`);
  return n;
}

function testOnlyReleaseDelay(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 300_000) throw new Error(`CHANGELEDGER_TEST_ONLY_HOLD_RELEASE_DELAY_MS (test only) must be a whole number of milliseconds from 0 to 300000, got "${raw}"`);
  return n;
}
