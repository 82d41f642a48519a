import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './postgres-cluster.js';

/**
 * A Debian observability peer (Prometheus, Alertmanager) run by a test as its own process, on a
 * loopback port, in a temp dir of its own. Shared by prometheus.ts and alertmanager.ts.
 */
export type PeerProcess = {
  name: string;
  url: string;
  port: number;
  /** The peer's own temp dir (config, storage); removed by stop(). */
  dir: string;
  pid: number;
  /** Everything the peer wrote to stdout and stderr: printed when a wait gives up. */
  logs(): string;
  /** SIGTERM, then SIGKILL if it is still there after a grace; removes the temp dir. Safe to call twice. */
  stop(): Promise<void>;
};

/** Debian's binaries (packages prometheus 2.42 and prometheus-alertmanager 0.25 on bookworm). */
export const PEER_BINARIES = { prometheus: '/usr/bin/prometheus', alertmanager: '/usr/bin/prometheus-alertmanager' } as const;
const PEER_PACKAGES = { prometheus: 'prometheus', alertmanager: 'prometheus-alertmanager' } as const;

/**
 * Which of the peers a suite needs are not installed. Locally the suite skips and says so on the
 * console (as the browser suites do without Chromium); under CI, which installs both, a missing one
 * is a broken machine and fails the file instead of skipping it.
 */
export function missingPeers(suite: string, need: Array<keyof typeof PEER_BINARIES>): string[] {
  const missing = need.filter((n) => !existsSync(PEER_BINARIES[n])).map((n) => PEER_PACKAGES[n]);
  if (missing.length === 0) return [];
  const words = `${missing.join(' and ')} not installed (apt-get install ${missing.join(' ')})`;
  if (process.env.CI) throw new Error(`${suite}: ${words}, but CI must run the real-parts tests`);
  console.warn(`${suite}: SKIPPING the real-parts tests: ${words}`);
  return missing;
}

/**
 * A real-parts test waits on several peers in turn, each wait with PEER_DEADLINE_MS: the test's
 * own limit is set above their sum, so a slow run ends with the wait that gave up, not vitest's
 * bare timeout. Hooks that start peers get it too.
 */
export const PEER_TEST_TIMEOUT_MS = 300_000;

/** Generous: the machine is small and CI runs under load; a wait fails only when the thing never happens. */
export const PEER_DEADLINE_MS = 60_000;

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Last resort when a test file dies before its afterAll: a worker that exits takes its peers with
 * it, so no Prometheus or Alertmanager outlives the run.
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/** Thrown by a poll's check to stop at once (the process it waits for is gone): other errors are retried. */
export class GiveUp extends Error {}

/** Polls `check` until it answers a value (not undefined), or throws `what` with the last problem after the deadline. */
export async function pollUntil<T>(what: string, check: () => Promise<T | undefined>, opts: { deadlineMs?: number; everyMs?: number; details?: () => string } = {}): Promise<T> {
  const deadline = performance.now() + (opts.deadlineMs ?? PEER_DEADLINE_MS);
  let last = '';
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
      last = '';
    } catch (e) {
      if (e instanceof GiveUp) throw e;
      last = e instanceof Error ? e.message : String(e);
    }
    if (performance.now() > deadline) {
      const extra = opts.details ? `\n${opts.details().slice(-6000)}` : '';
      throw new Error(`gave up waiting for ${what} after ${Math.round((opts.deadlineMs ?? PEER_DEADLINE_MS) / 1000)} s${last ? ` (last: ${last})` : ''}${extra}`);
    }
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 250));
  }
}

/**
 * Starts `bin` with the arguments `args(port, dir)` builds, on a free loopback port, and waits until
 * GET /-/ready answers 200. A port another process took between the pick and the bind makes the
 * peer exit at once: then it tries again on another port.
 */
export async function startPeer(opts: { name: string; bin: string; prepare?: (dir: string) => void; args: (port: number, dir: string) => string[] }): Promise<PeerProcess> {
  installExitHook();
  const dir = mkdtempSync(join(tmpdir(), `changeledger-${opts.name}-`));
  opts.prepare?.(dir);
  let lastError: Error | null = null;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    const child = spawn(opts.bin, opts.args(port, dir), { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    child.once('exit', () => live.delete(child));
    child.once('error', (e) => {
      out += `\nspawn error: ${e.message}`;
    });
    const url = `http://127.0.0.1:${port}`;
    let stopped: Promise<void> | null = null;
    const stopChild = (): Promise<void> => {
      if (!stopped) {
        stopped = (async () => {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            const grace = new Promise<'grace'>((r) => setTimeout(() => r('grace'), 10_000).unref());
            if ((await Promise.race([exited.then(() => 'exited' as const), grace])) === 'grace') {
              child.kill('SIGKILL');
              await exited;
            }
          }
        })();
      }
      return stopped;
    };
    try {
      await pollUntil(`${opts.name} to be ready on ${url}`, async () => {
        if (child.exitCode !== null || child.signalCode !== null) throw new ExitedEarly(`${opts.name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${out}`);
        const res = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(5_000) });
        return res.status === 200 ? true : undefined;
      }, { details: () => out, everyMs: 200 });
    } catch (e) {
      await stopChild();
      if (e instanceof ExitedEarly && /address already in use/i.test(e.message) && attempt < 2) {
        lastError = e;
        continue;
      }
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
    return {
      name: opts.name, url, port, dir, pid: child.pid!,
      logs: () => out,
      async stop() {
        await stopChild();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError ?? new Error(`${opts.name} did not start`);
}

class ExitedEarly extends GiveUp {}

/** GET or POST JSON on a peer; a non-2xx answer throws with the peer's own words. */
export async function peerJson<T>(url: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text}`);
  return (text === '' ? null : JSON.parse(text)) as T;
}
