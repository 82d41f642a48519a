import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Finds initdb/pg_ctl: on PATH, or in Debian's /usr/lib/postgresql/<version>/bin. */
export function findPostgresBin(): string | null {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return join(onPath, '..');
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], 'bin') : null;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export type Cluster = {
  url: string;
  dir: string;
  stop(): void;
  /** pg_ctl stop -m fast: the server ends every session and refuses new ones; the data stays. */
  halt(): void;
  /** Starts it again on the same port and data. */
  resume(): void;
};

/**
 * A throw-away PostgreSQL cluster on a free loopback port. initdb and postgres refuse to run as
 * root, so as root they run as the `postgres` user. Tests run it with fsync off; `durable` keeps
 * PostgreSQL's own default (fsync on), for a benchmark that compares commits as users pay for them.
 * `settings` are more server settings, each passed as `-c name=value` (a benchmark loads
 * pg_stat_statements this way).
 */
export async function startCluster(bin: string, o: { durable?: boolean; settings?: Record<string, string> } = {}): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'changeledger-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' }) : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  // pg_ctl hands -o to a shell: each setting is quoted, so a value with a space or a quote stays one setting.
  const extra = Object.entries(o.settings ?? {}).map(([k, v]) => `-c '${`${k}=${v}`.replace(/'/g, `'\\''`)}'`).join(' ');
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${o.durable ? '' : '-c fsync=off '}-c max_connections=200${extra ? ` ${extra}` : ''}`;
  const start = () => run('pg_ctl', ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    halt: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']),
    resume: start,
    stop() {
      try {
        // Already halted (a test that failed between halt and resume): nothing to stop.
        if (existsSync(join(data, 'postmaster.pid'))) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
