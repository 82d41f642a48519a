/**
 * The real processes of `npm run bench -- load`: `node bin/changeledger.js serve` replicas on one
 * PostgreSQL server, the CLI that adds the owner, and the seed every phase starts from (flags, a
 * catalogue, API tokens, SDK keys, signed-in sessions and some history), made once through the
 * product's own API and copied per phase with CREATE DATABASE … TEMPLATE, so each phase starts on
 * the same data.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/platform/paths.js';
import { say } from './bench-support.js';
import type { Fixtures } from './load-mix.js';

export const BIN = join(packageRoot, 'bin', 'changeledger.js');
export const OWNER = 'load@bench.test';
export const PASSWORD = 'correct horse battery staple, load bench';

const BUILT = join(packageRoot, 'dist', 'server', 'cli', 'main.js');

/** Runs npm run build unless told not to, then waits for dist/ (another build may have emptied it). */
export async function ensureBuilt(skip: boolean): Promise<void> {
  if (!skip) {
    say('npm run build ...');
    const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: packageRoot, stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) throw new Error(`npm run build failed (${r.status})`);
  }
  // Another build in the same checkout may have emptied dist/ for a moment: wait for it.
  for (let i = 0; i < 60 && !existsSync(BUILT); i++) await new Promise((r) => setTimeout(r, 1000));
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run npm run build`);
}

/** The same server's URL with another database. */
export function withDb(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}


export type Replica = {
  label: string;
  url: string;
  pipelineUrl: string;
  pid: number;
  stderr(): string;
  /** SIGTERM, then SIGKILL after 15 s; resolves when it has exited. */
  stop(): Promise<void>;
};

/** Runs the built CLI once; rejects with its stderr when it fails. */
export function cli(args: string[], input = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: packageRoot, env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`changeledger ${args.slice(0, 2).join(' ')} exited ${code}: ${err.trim()}`))));
    child.stdin.end(input);
  });
}

/**
 * Starts `changeledger serve` on free loopback ports with its JSON log (stdout) in a file, and
 * waits for the startup block. Replicas of one phase share the data directory, for the same data key.
 * Without a database URL it runs on the embedded engine in the data directory.
 */
export async function startReplica(o: { label: string; databaseUrl: string | undefined; dataDir: string; logFile: string; bin?: string }): Promise<Replica> {
  const log = openSync(o.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(
      process.execPath,
      [o.bin ?? BIN, 'serve', ...(o.databaseUrl ? ['--database-url', o.databaseUrl] : []), '--data', o.dataDir, '--host', '127.0.0.1', '--port', '0', '--pipeline-host', '127.0.0.1', '--pipeline-port', '0'],
      { cwd: packageRoot, env: { ...process.env }, stdio: ['ignore', log, 'pipe'] },
    );
  } finally {
    closeSync(log);
  }
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<{ url: string; pipelineUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${o.label} did not start within 60 s:\n${err}`)), 60_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const url = /web UI and API on (\S+)/.exec(err)?.[1];
      const pipelineUrl = /pipeline listener on (\S+)/.exec(err)?.[1];
      if (url && pipelineUrl) {
        clearTimeout(timer);
        resolve({ url, pipelineUrl });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${o.label} exited (${code}) before listening:\n${err}`));
    });
  });
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    })();
    return stopping;
  };
  try {
    const { url, pipelineUrl } = await ready;
    return { label: o.label, url, pipelineUrl, pid: child.pid!, stderr: () => err, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** The postmaster's pid, from the first line of postmaster.pid in the cluster's data directory. */
export function postmasterPid(clusterDir: string): number {
  return Number(readFileSync(join(clusterDir, 'data', 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
}

/** A JSON (or, for a string body, YAML) request to a server's API; the answer parsed where it is JSON. */
export async function api(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; json: unknown; headers: Headers }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'application/yaml' : 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}

async function expectOk(what: string, p: Promise<{ status: number; json: unknown }>, ok = [200, 201]): Promise<unknown> {
  const r = await p;
  if (!ok.includes(r.status)) throw new Error(`seed: ${what} answered ${r.status}: ${JSON.stringify(r.json)}`);
  return r.json;
}

/** Runs `fn` over `items`, `width` at a time. */
export async function inParallel<T>(items: readonly T[], width: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  }));
}

export type SeedPlan = { sessions: number; flags: number; namespaces: number; services: number; tokens: number; sdkKeys: number; history: number };

/**
 * Fills the seed database through one running replica, as people and pipelines would: sessions
 * (one per virtual user), low-risk boolean flags, a catalogue of services, API tokens, SDK keys of
 * production, and some history (each flag toggled in both environments, a few changes).
 */
export async function seed(replica: Replica, plan: SeedPlan): Promise<Fixtures> {
  const sessions: Fixtures['sessions'] = [];
  for (let i = 0; i < plan.sessions; i++) {
    const r = await api(replica.url, 'POST', '/api/session', {}, { email: OWNER, password: PASSWORD });
    if (r.status !== 200) throw new Error(`seed: sign-in answered ${r.status}: ${JSON.stringify(r.json)}`);
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith('cl_session='))?.split(';')[0];
    if (!cookie) throw new Error('seed: sign-in set no cl_session cookie');
    sessions.push({ cookie, csrf: (r.json as { csrfToken: string }).csrfToken });
  }
  const s = sessions[0]!;
  const h = { cookie: s.cookie, 'x-csrf-token': s.csrf };

  const namespaces = Array.from({ length: plan.namespaces }, (_, i) => `ops.load.ns${i}`);
  const flags = Array.from({ length: plan.flags }, (_, i) => `${namespaces[i % namespaces.length]}.flag${i}`);
  await inParallel(flags, 4, async (key) => {
    await expectOk(`POST /api/flags ${key}`, api(replica.url, 'POST', '/api/flags', h, { key, type: 'boolean', risk: 'low', description: 'load benchmark flag', reason: 'load benchmark seed' }));
  });

  const services = Array.from({ length: plan.services }, (_, i) => `load-svc-${i}`);
  const yaml = ['entities:', ...services.map((n, i) => `  - { key: "svc:${n}", kind: service, name: ${n}, tier: ${i % 10 === 0 ? 'critical' : 'standard'} }`),
    'links:', ...services.slice(1).map((n, i) => `  - { from: "svc:${n}", to: "svc:${services[Math.floor(i / 3)]!}", via: calls }`), ''].join('\n');
  await expectOk('catalogue import', api(replica.url, 'POST', '/api/catalog/imports?format=changeledger&source=cmdb', h, yaml));

  const tokens: string[] = [];
  await inParallel(Array.from({ length: plan.tokens }, (_, i) => i), 4, async (i) => {
    const j = (await expectOk('POST /api/tokens', api(replica.url, 'POST', '/api/tokens', h, {
      name: `load pipeline ${i}`, scopes: ['changes:read', 'changes:write', 'flags:read', 'flags:write', 'audit:read'],
    }))) as { secret: string };
    tokens.push(j.secret);
  });

  const sdkKeys: string[] = [];
  for (let i = 0; i < plan.sdkKeys; i++) {
    const j = (await expectOk('POST /api/sdk-keys', api(replica.url, 'POST', '/api/sdk-keys', h, { name: `load app ${i}`, env: 'production' }))) as { secret: string };
    sdkKeys.push(j.secret);
  }

  await inParallel(flags.flatMap((f) => [`${f}|production`, `${f}|staging`]), 4, async (fe) => {
    const [key, env] = fe.split('|') as [string, string];
    await expectOk(`toggle ${key} in ${env}`, api(replica.url, 'PUT', `/api/flags/${key}/environments/${env}`, h, { enabled: true, reason: 'load benchmark seed' }));
  });
  await inParallel(Array.from({ length: plan.history }, (_, i) => i), 4, async (i) => {
    const svc = services[i % services.length]!;
    await expectOk('POST /api/changes', api(replica.url, 'POST', '/api/changes', h, { title: `Seed deploy ${svc}`, kind: 'deploy', components: [{ query: svc }], maxDurationMinutes: 60 }));
  });
  return { sessions, tokens, sdkKeys, flags, namespaces, services };
}
