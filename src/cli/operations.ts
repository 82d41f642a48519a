import { createHash } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import type { Services } from '../compose.js';
import { badRequest, notFound } from '../platform/errors.js';
import { UnknownOperationError, type AdminRequest } from '../platform/admin/admin-socket.js';
import { isEmailAddress, isScope, MIN_PASSWORD_LENGTH, ROLES, type Role } from '../domains/auth/index.js';
import { IMPORT_FORMATS, type ImportFormat } from '../domains/catalogue/catalogue-service.js';
import { exportLedger, ledgerDigest, listAuditEvents, publicEvent, verifyLedger, type AuditContext, type AuditFilter } from '../domains/ledger/index.js';
import type { AuthService, Organization, User } from '../domains/auth/index.js';
import { version } from '../config.js';
import { createBackupFile } from '../platform/db/backup-create.js';
import type { Queryable } from '../platform/db/database.js';

/**
 * The work of the command line's store commands, as a fixed set of named operations. The CLI runs
 * them itself on a store it opens, or asks a running server to run them over the local admin
 * socket (platform/admin): one code path, two transports. `check` is where the arguments are
 * judged, by the CLI before it opens anything, and again by the server on receipt.
 */

/** Hears progress and streamed items; a promise means: wait before sending more. */
type Emit = (event: unknown) => void | Promise<void>;
type Operation<A, R = unknown> = { check(args: unknown): A; run(s: Services, ctx: AuditContext, args: A, emit: Emit): Promise<R> };
const operation = <A, R>(o: Operation<A, R>): Operation<A, R> => o;

type Fields = Record<string, unknown>;
const fields = (v: unknown): Fields => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {});
function text(f: Fields, key: string, option = key): string {
  const v = f[key];
  if (typeof v !== 'string') throw badRequest(`--${option} is required`, key);
  return v;
}
function optional(f: Fields, key: string): string | undefined {
  const v = f[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`${key} must be text`, key);
  return v;
}
function email(f: Fields, key: string, option: string): string {
  const v = text(f, key, option);
  if (!isEmailAddress(v)) throw badRequest(`--${option} must be an e-mail address such as ops@example.com, not "${v}"`, key);
  return v;
}

const org = (f: Fields) => ({ org: optional(f, 'org') });
/** Owner-level view for listing and revoking every token of the organisation, as the CLI always had. */
const operatorView = (o: Organization) => ({ org: o, user: { id: '', email: '', displayName: '', hasPassword: false } as User, role: 'owner' as const });

async function perOrganization<T extends object>(auth: AuthService, slug: string | undefined, fn: (orgId: string) => Promise<T>): Promise<Array<T & { organization: string }>> {
  const orgs = slug ? [await auth.resolveOrganization(slug)] : await auth.listOrganizations();
  const out: Array<T & { organization: string }> = [];
  for (const o of orgs) out.push({ organization: o.slug, ...(await fn(o.id)) });
  return out;
}

type FilterArgs = { org?: string; filter: AuditFilter };
function auditFilter(f: Fields): FilterArgs {
  const ff = fields(f.filter);
  const when = (key: 'since' | 'until') => {
    // Checked arguments may be checked again (the CLI checks before it opens the store, and the
    // operation checks what it is given): a time already read stays what it is.
    const given = ff[key];
    if (given instanceof Date) return given;
    const v = optional(ff, key);
    if (v === undefined) return undefined;
    const d = new Date(v);
    if (Number.isNaN(d.getTime())) throw badRequest(`--${key} must be a duration such as 1h or 7d, or an ISO-8601 time`, key);
    return d;
  };
  return {
    ...org(f),
    filter: {
      action: optional(ff, 'action'), actor: optional(ff, 'actor'), targetType: optional(ff, 'targetType'), targetId: optional(ff, 'targetId'),
      correlationId: optional(ff, 'correlationId'), q: optional(ff, 'q'), since: when('since'), until: when('until'),
    },
  };
}

/** Progress of a long import, at most a few times a second (it may travel over the socket). */
function throttled(emit: Emit): (phase: string, done: number, total: number) => void {
  let last = 0;
  let lastPhase = '';
  return (phase, done, total) => {
    const now = Date.now();
    if (phase === lastPhase && done < total && now - last < 100) return;
    last = now;
    lastPhase = phase;
    void emit({ phase, done, total });
  };
}

/** A backup travels in pieces of this size (base64 in one JSON line each). */
const BACKUP_CHUNK_BYTES = 256 * 1024;

/**
 * Each organisation's chain head, read on the snapshot's own transaction (the auth service would
 * query outside it, and wait on it).
 */
export async function chainHeads(q: Queryable) {
  const orgs = await q.query<{ id: string; slug: string }>('SELECT id, slug FROM organizations ORDER BY created_at, id');
  const out = [];
  for (const o of orgs.rows) {
    const d = await ledgerDigest(q, o.id);
    out.push({ id: o.id, slug: o.slug, seq: d.seq, hash: d.hash });
  }
  return out;
}

export const OPERATIONS = {
  'users.add': operation({
    check(v) {
      const f = fields(v);
      const role = text(f, 'role');
      if (!(ROLES as readonly string[]).includes(role)) throw badRequest(`--role must be one of ${ROLES.join(', ')}, not "${role}"`, 'role');
      const password = optional(f, 'password');
      if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) throw badRequest(`the password must be at least ${MIN_PASSWORD_LENGTH} characters`, 'password');
      return { ...org(f), email: email(f, 'email', 'email'), role: role as Role, displayName: optional(f, 'displayName'), password };
    },
    async run(s, ctx, a) {
      const r = await s.auth.addMember(ctx, a);
      return { user: r.user, organization: r.org, role: a.role };
    },
  }),
  'users.list': operation({
    check: (v) => org(fields(v)),
    run: async (s, _ctx, a) => s.auth.listMembers((await s.auth.resolveOrganization(a.org)).id),
  }),
  'users.link': operation({
    check: (v) => ({ ...org(fields(v)), email: email(fields(v), 'email', 'email') }),
    run: async (s, ctx, a) => ({ token: await s.auth.createSignInLink(ctx, await s.auth.resolveOrganization(a.org), a.email) }),
  }),
  'users.remove': operation({
    check: (v) => ({ ...org(fields(v)), email: email(fields(v), 'email', 'email') }),
    run: async (s, ctx, a) => {
      await s.auth.removeMember(ctx, await s.auth.resolveOrganization(a.org), a.email);
      return {};
    },
  }),
  'tokens.create': operation({
    check(v) {
      const f = fields(v);
      const scopes = Array.isArray(f.scopes) ? f.scopes.filter((x): x is string => typeof x === 'string') : [];
      if (scopes.length === 0) throw badRequest('--scopes must name at least one scope', 'scopes');
      const bad = scopes.find((x) => !isScope(x));
      if (bad !== undefined) throw badRequest(`--scopes: unknown scope "${bad}"`, 'scopes');
      const expiresAt = optional(f, 'expiresAt');
      if (expiresAt !== undefined && Number.isNaN(Date.parse(expiresAt))) throw badRequest('--expires must be a duration such as 30d or 12h', 'expires');
      return { ...org(f), user: email(f, 'user', 'user'), name: text(f, 'name'), scopes, expiresAt: expiresAt ?? null };
    },
    async run(s, ctx, a) {
      const o = await s.auth.resolveOrganization(a.org);
      const member = (await s.auth.listMembers(o.id)).find((m) => m.email.toLowerCase() === a.user.toLowerCase());
      if (!member) throw notFound(`${a.user} is not a member of ${o.name}`);
      return s.auth.createToken(ctx, { org: o, user: member }, { name: a.name, scopes: a.scopes, expiresAt: a.expiresAt ? new Date(a.expiresAt) : null });
    },
  }),
  'tokens.list': operation({
    check: (v) => org(fields(v)),
    run: async (s, _ctx, a) => s.auth.listTokens(operatorView(await s.auth.resolveOrganization(a.org))),
  }),
  'tokens.revoke': operation({
    check: (v) => ({ ...org(fields(v)), id: text(fields(v), 'id') }),
    run: async (s, ctx, a) => s.auth.revokeToken(ctx, operatorView(await s.auth.resolveOrganization(a.org)), a.id),
  }),
  'audit.query': operation({
    check(v) {
      const limit = fields(v).limit;
      if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 500) throw badRequest('--limit must be 1 to 500', 'limit');
      return { ...auditFilter(fields(v)), limit };
    },
    async run(s, _ctx, a) {
      const o = await s.auth.resolveOrganization(a.org);
      return (await listAuditEvents(s.db, o.id, a.filter, a.limit)).items.map(publicEvent);
    },
  }),
  'audit.export': operation({
    check: (v) => auditFilter(fields(v)),
    async run(s, _ctx, a, emit) {
      const o = await s.auth.resolveOrganization(a.org);
      for await (const line of exportLedger(s.db, s.clock, o, a.filter)) await emit(line);
      return {};
    },
  }),
  'audit.verify': operation({
    check: (v) => org(fields(v)),
    run: (s, _ctx, a) => perOrganization(s.auth, a.org, (id) => verifyLedger(s.db, id)),
  }),
  'audit.checkpoint': operation({
    check: (v) => org(fields(v)),
    async run(s, _ctx, a) {
      const o = await s.auth.resolveOrganization(a.org);
      const cp = await s.db.transaction((tx) => s.checkpoints.create(tx, o));
      return { organization: o.slug, ...cp! };
    },
  }),
  'audit.checkpointKey': operation({
    check: () => ({}),
    run: async (s) => s.checkpoints.publicKey(),
  }),
  'audit.digest': operation({
    check: (v) => org(fields(v)),
    run: (s, _ctx, a) => perOrganization(s.auth, a.org, (id) => ledgerDigest(s.db, id)),
  }),
  'backup.create': operation({
    check: () => ({}),
    async run(s, ctx, _a, emit) {
      if (s.db.engine !== 'pglite') throw badRequest('backup is for the embedded database; for a PostgreSQL server use pg_dump (see docs/backups.md)');
      const { manifest, file } = await createBackupFile(s.db, {
        now: () => s.clock.now(), productVersion: version, env: process.env, organizations: chainHeads,
        madeBy: ctx.actor.name.endsWith(VIA_SOCKET) ? 'server' : 'command line',
      });
      // The file travels as events, so the command line writes it with its own rights where it was asked to.
      for (let at = 0; at < file.length; at += BACKUP_CHUNK_BYTES) await emit({ chunk: file.subarray(at, at + BACKUP_CHUNK_BYTES).toString('base64') });
      s.logger.info({ operator: ctx.actor.name, bytes: file.length, schemaVersion: manifest.schemaVersion }, 'backup: made a snapshot of the embedded database');
      return { manifest, bytes: file.length, sha256: createHash('sha256').update(file).digest('hex') };
    },
  }),
  'catalogue.import': operation({
    check(v) {
      const f = fields(v);
      const format = text(f, 'format');
      if (!(IMPORT_FORMATS as readonly string[]).includes(format)) throw badRequest(`--format must be one of ${IMPORT_FORMATS.join(', ')}, not "${format}"`, 'format');
      return { ...org(f), format: format as ImportFormat, text: text(f, 'text', 'file'), source: optional(f, 'source') };
    },
    async run(s, ctx, a, emit) {
      const o = await s.auth.resolveOrganization(a.org);
      return s.catalogue.importText(ctx, o.id, a.format, a.text, a.source, throttled(emit));
    },
  }),
} as const;

export type OperationName = keyof typeof OPERATIONS;
export type ArgsOf<N extends OperationName> = ReturnType<(typeof OPERATIONS)[N]['check']>;
/** What an operation answers, as JSON carries it (the CLI prints the same either way). */
export type ResultOf<N extends OperationName> = Awaited<ReturnType<(typeof OPERATIONS)[N]['run']>>;

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(OPERATIONS, name);
}

/** Who runs the command line: `user@host`, as the ledger has recorded it. */
export function operatorName(): string {
  let who = 'unknown';
  try {
    who = userInfo().username;
  } catch {
    // no passwd entry (containers): keep 'unknown'
  }
  return `${who}@${hostname()}`;
}

const VIA_SOCKET = ' (via the local admin socket)';

/** The audit context of the local operator; over the socket the actor's name says so. */
export function operatorContext(operator: string, via: 'store' | 'socket'): AuditContext {
  const name = `cli:${operator}${via === 'socket' ? VIA_SOCKET : ''}`;
  return { actor: { kind: 'system', id: null, name }, source: 'cli' };
}

/** Runs one operation and answers its result as JSON would carry it, whichever transport asked. */
export async function runOperation(s: Services, ctx: AuditContext, name: OperationName, args: unknown, emit: Emit): Promise<unknown> {
  const op = OPERATIONS[name] as Operation<unknown, unknown>;
  const result = await op.run(s, ctx, op.check(args), emit);
  return JSON.parse(JSON.stringify(result ?? null)) as unknown;
}

/** The server's side of the admin socket. */
export function adminHandler(services: Services): (req: AdminRequest, emit: Emit) => Promise<unknown> {
  return async (req, emit) => {
    if (!isOperationName(req.op)) throw new UnknownOperationError(req.op);
    // The socket is 0600: whoever connects is the server's own account or root, who names itself.
    if (!/^[^\s\p{Cc}]{1,200}$/u.test(req.operator)) throw badRequest('operator must be user@host', 'operator');
    return runOperation(services, operatorContext(req.operator, 'socket'), req.op, req.args, emit);
  };
}
