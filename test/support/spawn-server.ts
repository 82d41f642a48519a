import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/platform/paths.js';

const CLI = join(packageRoot, 'src', 'cli', 'main.ts');
const BUILT_CLI = join(packageRoot, 'bin', 'changeledger.js');
const BUILT_MAIN = join(packageRoot, 'dist', 'bundle', 'main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(path) : e.name.endsWith('.ts') ? statSync(path).mtimeMs : 0);
  }
  return newest;
}

let entry: string[] | null = null;
/**
 * How a test runs this tree's command line as its own process: the build, when it is newer than
 * every source file (npm test builds first), because plain node starts in a fraction of tsx's time
 * and a busy machine pays tsx's start-up on every spawn; otherwise the sources through tsx, so that
 * a test never runs a stale build.
 */
export function cliEntry(): string[] {
  if (!entry) {
    const built = existsSync(BUILT_MAIN) && statSync(BUILT_MAIN).mtimeMs > newestSource(join(packageRoot, 'src'));
    entry = built ? [BUILT_CLI] : ['--import', 'tsx', CLI];
  }
  return entry;
}

export type CliResult = { code: number; stdout: string; stderr: string };

/** Runs the real CLI as its own process (the build when it is fresh, else through tsx: cliEntry). */
export function runCli(args: string[], opts: { input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cliEntry(), ...args], {
      cwd: packageRoot,
      env: { ...process.env, LOG_LEVEL: 'warn', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

export async function createOwner(dataDir: string, email: string, password: string, extra: string[] = []): Promise<void> {
  const r = await runCli(['users', 'add', '--email', email, '--role', 'owner', '--password-stdin', '--data', dataDir, ...extra], { input: `${password}\n` });
  if (r.code !== 0) throw new Error(`users add failed (${r.code}): ${r.stderr}`);
}

export type ServerProcess = {
  url: string;
  pipelineUrl: string;
  pid: number;
  child: ChildProcess;
  stderr(): string;
  stdout(): string;
  /** SIGTERM and wait for a clean exit; answers the exit code. */
  stop(): Promise<number | null>;
  /** kill -9: no chance to flush or close anything. */
  kill9(): Promise<void>;
};

/** Starts `changeledger serve` as a real process on free ports and waits until it listens; `cli`: another tree's src/cli/main.ts (an earlier release). */
export async function startServer(opts: { dataDir: string; env?: Record<string, string>; args?: string[]; cli?: string }): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [...(opts.cli ? ['--import', 'tsx', opts.cli] : cliEntry()), 'serve', '--data', opts.dataDir, '--host', '127.0.0.1', '--port', '0', '--pipeline-host', '127.0.0.1', '--pipeline-port', '0', ...(opts.args ?? [])],
    { cwd: packageRoot, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<{ url: string; pipelineUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 60 s:\n${err}`)), 60_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      // A worker (--role worker) has no pipeline listener: only its probes.
      const worker = /\(--role worker\).* metrics on (\S+)/.exec(err)?.[1];
      const url = worker ?? /web UI and API on (\S+)/.exec(err)?.[1];
      const pipelineUrl = worker ? '' : /pipeline listener on (\S+)/.exec(err)?.[1];
      if (url && pipelineUrl !== undefined) {
        clearTimeout(timer);
        resolve({ url, pipelineUrl });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${err}`));
    });
  });
  const { url, pipelineUrl } = await ready;
  let stopping: Promise<number | null> | null = null;
  return {
    url, pipelineUrl, pid: child.pid!, child,
    stderr: () => err,
    stdout: () => out,
    // Once: a second SIGTERM would cut the graceful shutdown short (as it should for a person
    // pressing Ctrl-C twice).
    stop() {
      if (!stopping) {
        if (child.exitCode === null) child.kill('SIGTERM');
        stopping = exited;
      }
      return stopping;
    },
    async kill9() {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
