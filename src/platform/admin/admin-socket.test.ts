import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError, badRequest } from '../errors.js';
import { adminSocketPath, callAdminSocket, NoAdminSocketError, openAdminSocket, UnknownOperationError, type AdminHandler, type AdminSocket } from './admin-socket.js';

let dir: string;
let open: AdminSocket | null;
const failures: unknown[] = [];
const start = async (handler: AdminHandler) => (open = await openAdminSocket(dir, handler, (err) => failures.push(err)));
const request = (op: string, args: unknown = {}) => ({ op, args, operator: 'ops@host' });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'admin-socket-'));
  open = null;
  failures.length = 0;
});
afterEach(async () => {
  await open?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the admin socket', () => {
  it('is created 0600 even when the process umask would allow everyone', async () => {
    const before = process.umask(0);
    try {
      await start(async () => null);
    } finally {
      process.umask(before);
    }
    const st = lstatSync(adminSocketPath(dir));
    expect(st.isSocket()).toBe(true);
    expect((st.mode & 0o777).toString(8)).toBe('600');
    // The process umask is what it was.
    expect(process.umask(before)).toBe(before);
  });

  it('answers the events, then the result, of the named operation', async () => {
    const seen: string[] = [];
    await start(async (req, emit) => {
      seen.push(`${req.op} by ${req.operator}`);
      await emit({ phase: 'one' });
      await emit({ phase: 'two' });
      return { echoed: req.args };
    });
    const events: unknown[] = [];
    const result = await callAdminSocket(adminSocketPath(dir), request('users.list', { org: 'acme' }), (e) => events.push(e));
    expect(result).toEqual({ echoed: { org: 'acme' } });
    expect(events).toEqual([{ phase: 'one' }, { phase: 'two' }]);
    expect(seen).toEqual(['users.list by ops@host']);
  });

  it('carries a refusal back with its status and field, an unknown operation as such, and logs only unexpected failures', async () => {
    await start(async (req) => {
      if (req.op === 'refuse') throw badRequest('--email must be an e-mail address', 'email');
      if (req.op === 'crash') throw new Error('disk on fire');
      throw new UnknownOperationError(req.op);
    });
    const refused = await callAdminSocket(adminSocketPath(dir), request('refuse')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 400, field: 'email', message: '--email must be an e-mail address' });
    expect(await callAdminSocket(adminSocketPath(dir), request('users.fly')).catch((e: unknown) => e)).toBeInstanceOf(UnknownOperationError);
    expect(failures).toEqual([]);
    const crashed = await callAdminSocket(adminSocketPath(dir), request('crash')).catch((e: unknown) => e);
    expect(crashed).not.toBeInstanceOf(AppError);
    expect((crashed as Error).message).toBe('disk on fire');
    expect(failures).toHaveLength(1);
  });

  it('nothing listening: NoAdminSocketError, which the CLI turns into the lock message', async () => {
    expect(await callAdminSocket(adminSocketPath(dir), request('audit.verify')).catch((e: unknown) => e)).toBeInstanceOf(NoAdminSocketError);
  });

  it('replaces a socket left by a process that died', async () => {
    const path = adminSocketPath(dir);
    // A socket file whose process is gone (Node removes its own on close, so bind one from Python and exit).
    const made = spawnSync('python3', ['-c', 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])', path]);
    expect(made.status, made.stderr.toString()).toBe(0);
    expect(await callAdminSocket(path, request('x')).catch((e: unknown) => e)).toBeInstanceOf(NoAdminSocketError);
    expect((lstatSync(path).mode & 0o777).toString(8)).not.toBe('600');
    await start(async () => 'fresh');
    expect((lstatSync(path).mode & 0o777).toString(8)).toBe('600');
    expect(await callAdminSocket(path, request('x'))).toBe('fresh');
  });

  it('refuses to remove something that is not a socket', async () => {
    const path = adminSocketPath(dir);
    writeFileSync(path, 'keep me');
    await expect(start(async () => null)).rejects.toThrow(/is not a socket/);
    expect(readFileSync(path, 'utf8')).toBe('keep me');
  });

  it('close lets an operation in hand finish, then removes the socket', async () => {
    let release = () => undefined as void;
    const gate = new Promise<void>((r) => (release = r));
    const sock = await start(async () => {
      await gate;
      return 'finished';
    });
    const answer = callAdminSocket(sock.path, request('slow'));
    await new Promise((r) => setTimeout(r, 50));
    const closing = sock.close();
    release();
    expect(await answer).toBe('finished');
    await closing;
    open = null;
    expect(existsSync(sock.path)).toBe(false);
  });
});
