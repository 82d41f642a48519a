import { prepared, type Queryable, type Row, type Tx } from '../../platform/db/database.js';
import type { AlongsideWrite } from '../ledger/index.js';
import type { ApprovalPolicy, Flag, FlagState, Json, Rollout, Rule } from './flag.js';

export type Environment = { key: string; name: string; position: number; approvalPolicy: ApprovalPolicy; approvalsNeeded: number };

const iso = (d: unknown) => new Date(d as string).toISOString();

type FlagRow = Row & {
  key: string; type: Flag['type']; description: string; owner_service: string | null; risk: Flag['risk'];
  tags: string[]; off_value: Json; approvals_needed: number; created_at: Date; updated_at: Date;
};
type StateRow = Row & { flag_key: string; env_key: string; enabled: boolean; value: Json; rules: Rule[]; rollout: Rollout | null; version: number; updated_at: Date };

const toFlag = (r: FlagRow): Flag => ({
  key: r.key, type: r.type, description: r.description, ownerService: r.owner_service, risk: r.risk,
  tags: r.tags, offValue: r.off_value, approvalsNeeded: r.approvals_needed, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at),
});

export type StoredState = FlagState & { env: string; version: number; updatedAt: string };
const toState = (r: StateRow): StoredState => ({
  env: r.env_key, enabled: r.enabled, value: r.value, rules: r.rules, rollout: r.rollout, version: r.version, updatedAt: iso(r.updated_at),
});

export async function listEnvironments(db: Queryable, orgId: string): Promise<Environment[]> {
  const r = await db.query<EnvironmentRow>('SELECT key, name, position, approval_policy, approvals_needed FROM environments WHERE org_id = $1 ORDER BY position, key', [orgId]);
  return r.rows.map(toEnvironment);
}

export async function updateEnvironmentPolicy(tx: Tx, orgId: string, key: string, p: { approvalPolicy: ApprovalPolicy; approvalsNeeded: number }): Promise<void> {
  await tx.query('UPDATE environments SET approval_policy = $3, approvals_needed = $4 WHERE org_id = $1 AND key = $2', [orgId, key, p.approvalPolicy, p.approvalsNeeded]);
}

export async function insertEnvironment(tx: Tx, orgId: string, e: Environment, at: string): Promise<void> {
  await tx.query(
    'INSERT INTO environments (org_id, key, name, position, approval_policy, approvals_needed, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [orgId, e.key, e.name, e.position, e.approvalPolicy, e.approvalsNeeded, at],
  );
}

export async function insertFlag(tx: Tx, orgId: string, f: Flag): Promise<void> {
  await tx.query(
    `INSERT INTO flags (org_id, key, type, description, owner_service, risk, tags, off_value, approvals_needed, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
    [orgId, f.key, f.type, f.description, f.ownerService, f.risk, f.tags, JSON.stringify(f.offValue), f.approvalsNeeded, f.createdAt],
  );
}

export async function insertState(tx: Tx, orgId: string, flagKey: string, env: string, s: FlagState, at: string): Promise<void> {
  await tx.query(
    `INSERT INTO flag_states (org_id, flag_key, env_key, enabled, value, rules, rollout, version, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8)`,
    [orgId, flagKey, env, s.enabled, JSON.stringify(s.value), JSON.stringify(s.rules), s.rollout ? JSON.stringify(s.rollout) : null, at],
  );
}

export async function findFlag(db: Queryable, orgId: string, key: string): Promise<Flag | null> {
  const r = await db.query<FlagRow>('SELECT * FROM flags WHERE org_id = $1 AND key = $2', [orgId, key]);
  return r.rows[0] ? toFlag(r.rows[0]) : null;
}

/** The states of the flag `f` of the statement, in the environments' order, as one JSON array. */
const STATES_OF_F = `(SELECT coalesce(json_agg(to_jsonb(s) ORDER BY e.position, e.key), '[]')
          FROM flag_states s JOIN environments e ON e.org_id = s.org_id AND e.key = s.env_key
         WHERE s.org_id = f.org_id AND s.flag_key = f.key) AS states`;

type WithStatesRow = Row & { flag: FlagRow; states: StateRow[] };
const withStates = (r: WithStatesRow): Flag & { states: StoredState[] } => ({ ...toFlag(r.flag), states: r.states.map(toState) });

const FLAG_WITH_STATES = prepared(`SELECT to_jsonb(f) AS flag, ${STATES_OF_F} FROM flags f WHERE f.org_id = $1 AND f.key = $2`);

/** One flag with its state in every environment, in one statement (findFlag and listStates together). */
export async function findFlagWithStates(db: Queryable, orgId: string, key: string): Promise<(Flag & { states: StoredState[] }) | null> {
  const r = await db.query<WithStatesRow>(FLAG_WITH_STATES, [orgId, key]);
  return r.rows[0] ? withStates(r.rows[0]) : null;
}

/** A key prefix as a LIKE pattern's start, its wildcards and escapes taken literally; the statement appends `%`. */
function likePrefix(prefix: string): string {
  return prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Flags under a namespace prefix (or all), by key, each with its states: listFlags and listStates in one statement. */
export async function listFlagsWithStates(db: Queryable, orgId: string, prefix: string | null, exact: boolean): Promise<Array<Flag & { states: StoredState[] }>> {
  const r = exact && prefix
    ? await db.query<WithStatesRow>(FLAG_WITH_STATES, [orgId, prefix])
    : await db.query<WithStatesRow>(
        `SELECT to_jsonb(f) AS flag, ${STATES_OF_F} FROM flags f
          WHERE f.org_id = $1 AND ($2::text IS NULL OR f.key LIKE $2 || '%') ORDER BY f.key LIMIT 5000`,
        [orgId, prefix ? likePrefix(prefix) : null],
      );
  return r.rows.map(withStates);
}

/** Flags under a namespace prefix (or all), by key. */
export async function listFlags(db: Queryable, orgId: string, prefix: string | null, exact: boolean): Promise<Flag[]> {
  const r = exact && prefix
    ? await db.query<FlagRow>('SELECT * FROM flags WHERE org_id = $1 AND key = $2', [orgId, prefix])
    : await db.query<FlagRow>(
        `SELECT * FROM flags WHERE org_id = $1 AND ($2::text IS NULL OR key LIKE $2 || '%') ORDER BY key LIMIT 5000`,
        [orgId, prefix ? likePrefix(prefix) : null],
      );
  return r.rows.map(toFlag);
}

export async function listStates(db: Queryable, orgId: string, keys: string[]): Promise<Map<string, StoredState[]>> {
  const out = new Map<string, StoredState[]>();
  if (keys.length === 0) return out;
  const r = await db.query<StateRow>(
    `SELECT s.* FROM flag_states s JOIN environments e ON e.org_id = s.org_id AND e.key = s.env_key
     WHERE s.org_id = $1 AND s.flag_key = ANY($2::text[]) ORDER BY e.position, e.key`,
    [orgId, keys],
  );
  for (const row of r.rows) {
    const list = out.get(row.flag_key) ?? [];
    list.push(toState(row));
    out.set(row.flag_key, list);
  }
  return out;
}

/** The state to change, locked until the transaction ends: concurrent writers queue, none is lost. */
const LOCK_STATE = prepared('SELECT * FROM flag_states WHERE org_id = $1 AND flag_key = $2 AND env_key = $3 FOR UPDATE');

export async function lockState(tx: Tx, orgId: string, flagKey: string, env: string): Promise<StoredState | null> {
  const r = await tx.query<StateRow>(LOCK_STATE, [orgId, flagKey, env]);
  return r.rows[0] ? toState(r.rows[0]) : null;
}

/** A state's write: its new values, and its flag's updated_at ($1 org, $2 flag, $3 environment, $4–$7 the state, $8 the time). */
const STATE_UPDATES = [
  `UPDATE flag_states SET enabled = $4, value = $5, rules = $6, rollout = $7, version = version + 1, updated_at = $8
    WHERE org_id = $1 AND flag_key = $2 AND env_key = $3`,
  'UPDATE flags SET updated_at = $8 WHERE org_id = $1 AND key = $2',
] as const;

const stateParams = (orgId: string, flagKey: string, env: string, s: FlagState, at: string): unknown[] =>
  [orgId, flagKey, env, s.enabled, JSON.stringify(s.value), JSON.stringify(s.rules), s.rollout ? JSON.stringify(s.rollout) : null, at];

/**
 * A state's write, for the flag record's own statement (appendAuditEvent's `alongside`): a flag
 * write sends its update and its record in one round trip.
 */
export function stateWrite(orgId: string, flagKey: string, env: string, s: FlagState, at: string): AlongsideWrite {
  return { statements: STATE_UPDATES, params: stateParams(orgId, flagKey, env, s, at) };
}

export type WriteContext = { flag: Flag; state: StoredState; environment: Environment; ticketPattern: string | null };
type EnvironmentRow = Row & { key: string; name: string; position: number; approval_policy: ApprovalPolicy; approvals_needed: number };
const toEnvironment = (x: EnvironmentRow): Environment => ({ key: x.key, name: x.name, position: x.position, approvalPolicy: x.approval_policy, approvalsNeeded: x.approvals_needed });

const LOAD_FOR_WRITE = prepared(`SELECT to_jsonb(f) AS flag, to_jsonb(s) AS state, to_jsonb(e) AS environment,
            (SELECT ticket_pattern FROM flag_settings WHERE org_id = $1) AS ticket_pattern
       FROM flags f
       JOIN environments e ON e.org_id = f.org_id AND e.key = $3
       JOIN flag_states s ON s.org_id = f.org_id AND s.flag_key = f.key AND s.env_key = e.key
      WHERE f.org_id = $1 AND f.key = $2
        FOR UPDATE OF s`);

/**
 * Everything one flag write reads, in one statement: the flag, the environment's approval policy,
 * the organisation's ticket pattern (null: the default), and the state to change, locked until the
 * transaction ends as lockState locks it. Null when the flag or the environment is missing, for the
 * caller to find out which.
 */
export async function loadForWrite(tx: Tx, orgId: string, flagKey: string, env: string): Promise<WriteContext | null> {
  const r = await tx.query<Row & { flag: FlagRow; state: StateRow; environment: EnvironmentRow; ticket_pattern: string | null }>(
    LOAD_FOR_WRITE,
    [orgId, flagKey, env],
  );
  const row = r.rows[0];
  return row ? { flag: toFlag(row.flag), state: toState(row.state), environment: toEnvironment(row.environment), ticketPattern: row.ticket_pattern } : null;
}

export async function updateFlagSettings(tx: Tx, orgId: string, f: Flag): Promise<void> {
  await tx.query(
    `UPDATE flags SET description = $3, owner_service = $4, risk = $5, tags = $6, approvals_needed = $7, updated_at = $8
     WHERE org_id = $1 AND key = $2`,
    [orgId, f.key, f.description, f.ownerService, f.risk, f.tags, f.approvalsNeeded, f.updatedAt],
  );
}

/** Every flag with its state in one environment, for evaluation. */
export async function flagsForEnv(db: Queryable, orgId: string, env: string, key?: string): Promise<Array<{ flag: Flag; state: StoredState }>> {
  const r = await db.query<FlagRow & { s_enabled: boolean; s_value: Json; s_rules: Rule[]; s_rollout: Rollout | null; s_version: number; s_updated_at: Date }>(
    `SELECT f.*, s.enabled AS s_enabled, s.value AS s_value, s.rules AS s_rules, s.rollout AS s_rollout, s.version AS s_version, s.updated_at AS s_updated_at
     FROM flags f JOIN flag_states s ON s.org_id = f.org_id AND s.flag_key = f.key
     WHERE f.org_id = $1 AND s.env_key = $2 AND ($3::text IS NULL OR f.key = $3) ORDER BY f.key`,
    [orgId, env, key ?? null],
  );
  return r.rows.map((row) => ({
    flag: toFlag(row),
    state: { env, enabled: row.s_enabled, value: row.s_value, rules: row.s_rules, rollout: row.s_rollout, version: row.s_version, updatedAt: iso(row.s_updated_at) },
  }));
}

/** Every key under a namespace prefix (no page limit: the flag audit asks by exact keys). */
export async function flagKeysUnder(db: Queryable, orgId: string, prefix: string): Promise<string[]> {
  const r = await db.query<{ key: string }>(`SELECT key FROM flags WHERE org_id = $1 AND key LIKE $2 || '%'`, [orgId, likePrefix(prefix)]);
  return r.rows.map((x) => x.key);
}

/** The flags whose owner is one of these names (compared in lower case), with their owner as stored. */
export async function flagOwnersAmong(db: Queryable, orgId: string, lowerNames: string[]): Promise<Map<string, string>> {
  const r = await db.query<{ key: string; owner_service: string }>(
    'SELECT key, owner_service FROM flags WHERE org_id = $1 AND lower(owner_service) = ANY($2::text[])', [orgId, lowerNames]);
  return new Map(r.rows.map((x) => [x.key, x.owner_service]));
}

export async function flagKeysOwnedBy(db: Queryable, orgId: string, owners: string[]): Promise<string[]> {
  const r = await db.query<{ key: string }>('SELECT key FROM flags WHERE org_id = $1 AND owner_service = ANY($2::text[]) ORDER BY key', [orgId, owners]);
  return r.rows.map((x) => x.key);
}
