import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export type LockHolder = { pid: number; host: string; holder: string; since: string };
export type DataDirLock = { readonly path: string; release(): void; describe(holder: string): void };

export class DataDirBusyError extends Error {
  readonly holder: LockHolder;
  constructor(dir: string, holder: LockHolder) {
    super(
      `the embedded database in ${dir} is in use by "${holder.holder}" (pid ${holder.pid} on ${holder.host}, since ${holder.since}). ` +
        'Only one process may open it: stop that process first, or talk to the running server through its API.',
    );
    this.name = 'DataDirBusyError';
    this.holder = holder;
  }
}

/** Whether a process of this host runs with that pid (EPERM: it runs, as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): LockHolder | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
  } catch {
    return null;
  }
}

/**
 * One process per data directory. The lock file is created exclusively (O_EXCL), so two
 * processes racing for a free directory cannot both win; a file left by a dead process on this
 * host (kill -9, power loss) is taken over.
 */
export function acquireDataDirLock(dir: string, holder: string): DataDirLock {
  const path = join(dir, 'changeledger.lock');
  const me: LockHolder = { pid: process.pid, host: hostname(), holder, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const current = readHolder(path);
        if (current?.pid === process.pid) rmSync(path, { force: true });
      };
      process.once('exit', release);
      return {
        path,
        release,
        describe(newHolder: string) {
          me.holder = newHolder;
          const fd2 = openSync(path, 'w', 0o600);
          writeSync(fd2, JSON.stringify(me));
          closeSync(fd2);
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const other = readHolder(path);
      if (other && (other.host !== me.host || isAlive(other.pid))) {
        throw new DataDirBusyError(dir, other);
      }
      if (!other && attempt === 0) {
        // Possibly a holder between its O_EXCL create and its write: give it a moment.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
        continue;
      }
      // Stale (its process is gone) or half-written: remove it and race again for O_EXCL.
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not take the lock on ${dir}`);
}
