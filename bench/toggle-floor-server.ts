/**
 * A bare node:http server for `bench vs-unleash --floor`: the least a signed-in flag toggle over
 * HTTP can cost on changeledger's own tables, with no framework, no schema check and no log line.
 * Started as `node --import tsx bench/toggle-floor-server.ts DATABASE_URL ARM`; prints `PORT n`.
 *
 * Both arms read the session the way the product does (findSessionMember, its prepared statement)
 * and check the CSRF token; then
 * - `update`: one UPDATE of the state, on its own (no transaction, no record);
 * - `recorded`: in one transaction, the state read and locked, then its update, the flag's
 *   updated_at and the audit record in one statement with the COMMIT, through the product's
 *   lockState, stateWrite and appendAuditEvent: the chain, hash and guarantees of a real write.
 * It answers PUT /api/flags/KEY/environments/ENV with {"enabled": …, "reason": …}, as the product does.
 */
import { createServer } from 'node:http';
import { findSessionMember } from '../src/domains/auth/auth-store.js';
import { lockState, stateWrite } from '../src/domains/flags/flag-store.js';
import { appendAuditEvent } from '../src/domains/ledger/ledger-store.js';
import { FLAG_RECORD_VERSION } from '../src/domains/flags/flag-record.js';
import { systemClock } from '../src/platform/clock.js';
import { sha256Hex } from '../src/platform/crypto/tokens.js';
import { openDatabase, prepared } from '../src/platform/db/database.js';

const [url, arm] = process.argv.slice(2);
if (!url || (arm !== 'update' && arm !== 'recorded')) {
  process.stderr.write('usage: toggle-floor-server.ts DATABASE_URL update|recorded\n');
  process.exit(2);
}
const db = await openDatabase({ engine: 'postgres', url, poolSize: Number(process.env.CHANGELEDGER_DB_POOL_SIZE ?? 10) });
const UPDATE = prepared('UPDATE flag_states SET enabled = $4, version = version + 1, updated_at = $5 WHERE org_id = $1 AND flag_key = $2 AND env_key = $3');
const PATH = /^\/api\/flags\/([^/]+)\/environments\/([^/]+)$/;

type Answer = { status: number; body: unknown };

async function toggle(path: string, cookie: string, csrf: string, body: string): Promise<Answer> {
  const m = PATH.exec(path);
  const sessionId = /(?:^|;\s*)cl_session=([^;]+)/.exec(cookie)?.[1];
  if (!m || !sessionId) return { status: 404, body: { error: 'no such route, or no session' } };
  const found = await findSessionMember(db, sha256Hex(sessionId));
  if (!found || found.session.csrfToken !== csrf) return { status: 401, body: { error: 'not signed in' } };
  const [, key, env] = m as unknown as [string, string, string];
  const orgId = found.member.org.id;
  const { enabled, reason } = JSON.parse(body) as { enabled: boolean; reason: string };
  const at = systemClock.now().toISOString();
  if (arm === 'update') {
    await db.query(UPDATE, [orgId, key, env, enabled, at]);
    return { status: 200, body: { flag: key, env, enabled } };
  }
  return db.transaction(async (tx) => {
    const before = await lockState(tx, orgId, key, env);
    if (!before) return { status: 404, body: { error: `no flag ${key} in ${env}` } };
    const changed = before.enabled !== enabled;
    const record = await appendAuditEvent(tx, systemClock, { actor: { kind: 'user', id: found.member.user.id, name: found.member.user.email }, source: 'api' }, {
      orgId, action: changed ? 'flag.updated' : 'flag.unchanged', target: { type: 'flag', id: key }, schemaVersion: FLAG_RECORD_VERSION,
      data: { flag: key, env, from: before.enabled, to: enabled, fields: changed ? ['enabled'] : [], reason, approvers: [], source: 'api', gitops: null },
    }, { commit: true, alongside: changed ? stateWrite(orgId, key, env, { ...before, enabled }, at) : undefined });
    return { status: 200, body: { flag: key, env, result: changed ? 'changed' : 'unchanged', record, state: { ...before, enabled } } };
  });
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const header = (name: string) => String(req.headers[name] ?? '');
    toggle(req.url ?? '', header('cookie'), header('x-csrf-token'), Buffer.concat(chunks).toString('utf8')).then(
      (a) => {
        const text = JSON.stringify(a.body);
        res.writeHead(a.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(err instanceof Error ? err.message : String(err));
      },
    );
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`PORT ${(server.address() as { port: number }).port}\n`));
process.once('SIGTERM', () => server.close(() => void db.close().then(() => process.exit(0))));
