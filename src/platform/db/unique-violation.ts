/** SQLSTATE of a unique or primary-key violation, on PostgreSQL and PGlite alike. */
export const UNIQUE_VIOLATION = '23505';

type Said = { message: string; field?: string };
type Override = { field?: string; say?: (value: string) => string };

/**
 * Constraints whose table and column do not already say it in a person's words. Every other
 * unique constraint is told from its table and column ("flag ops.x exists already").
 */
const CONSTRAINTS: Record<string, Override> = {
  users_email_key: { field: 'email', say: (v) => `an account with e-mail ${v} exists already` },
  organizations_slug_key: { field: 'slug', say: (v) => `the organisation address ${v} is taken` },
  memberships_pkey: { say: () => 'this person is a member already' },
  manual_services_pkey: { field: 'name', say: (v) => `manual service ${v} exists already` },
  component_aliases_pkey: { field: 'alias', say: (v) => `alias ${v} exists already` },
  flag_approvals_pkey: { say: () => 'you approved this change already' },
  change_approvals_pkey: { say: () => 'you have decided on this change already' },
  change_approvers_pkey: { field: 'userIds', say: () => 'that person is an approver already' },
};

/** Columns that only say whose row it is: never the thing a client named. */
const SCOPE = new Set(['org_id']);
const MAX_VALUE = 200;

const camel = (column: string) => column.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** flags → flag, catalogue_entities → catalogue entity, component_aliases → component alias. */
export function singular(table: string): string {
  const words = table.replace(/_/g, ' ');
  if (words.endsWith('ies')) return `${words.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(words)) return words.slice(0, -2);
  return words.endsWith('s') && !words.endsWith('ss') ? words.slice(0, -1) : words;
}

/** "Key (org_id, key)=(org_1, ops.x) already exists." → [[org_id, org_1], [key, ops.x]]; only the last value may hold ", ". */
function pairs(detail: string): [string, string][] | null {
  const m = /^Key \((.+)\)=\((.*)\) already exists\.?$/s.exec(detail);
  if (!m) return null;
  const columns = m[1]!.split(', ').map((c) => c.replace(/^\w+\((\w+)\)$/, '$1'));
  const values = m[2]!.split(', ');
  if (values.length < columns.length) return null;
  const last = values.slice(columns.length - 1).join(', ');
  return columns.map((c, i) => [c, i === columns.length - 1 ? last : values[i]!]);
}

/** What to tell a client whose write hit a unique constraint, or null when the error is not one. */
export function describeUniqueViolation(err: unknown): Said | null {
  const e = err as { code?: unknown; constraint?: unknown; table?: unknown; detail?: unknown };
  if (e?.code !== UNIQUE_VIOLATION) return null;
  const constraint = typeof e.constraint === 'string' ? e.constraint : '';
  const table = typeof e.table === 'string' ? e.table : '';
  const named = (typeof e.detail === 'string' ? pairs(e.detail) : null)?.filter(([c]) => !SCOPE.has(c)).at(-1);
  const value = named ? (named[1].length > MAX_VALUE ? `${named[1].slice(0, MAX_VALUE)}…` : named[1]) : '';
  const known = CONSTRAINTS[constraint];
  const field = known ? known.field : named ? camel(named[0]) : undefined;
  const message = known?.say
    ? known.say(value)
    : named && table ? `${singular(table)} ${value} exists already` : 'this exists already';
  return field ? { message, field } : { message };
}
