import { Type, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { invalid } from '../../platform/errors.js';
import type { LiteralJudgement } from '../../platform/net/outbound.js';
import { checkUrl } from '../../platform/net/url-input.js';
import { PULL_KINDS, type SourceKind } from './observed-types.js';

/**
 * What each kind of connection needs besides its secret, checked once when it is saved so that
 * neither the intake nor a pull meets a bad one. Field problems are `config.<field>` 400s in words.
 * Pure: the URL judgement is handed in (the outbound guard's literal check, no DNS).
 */

export const GITHUB_API_URL = 'https://api.github.com';
export const GITLAB_API_URL = 'https://gitlab.com/api/v4';
/** Repositories, projects or regions one connection reads: enough for a team, bounded for one pull's 1,500 raw items. */
export const MAX_CONFIG_ITEMS = 100;

const Text = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '^[^\\u0000-\\u001f\\u007f]+$' });
const List = (item: TSchema) => Type.Array(item, { maxItems: MAX_CONFIG_ITEMS });

const SCHEMAS: Record<SourceKind, TSchema> = {
  github: Type.Object({ apiUrl: Type.Optional(Type.String()), repos: Type.Optional(List(Type.String({ pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$' }))) }, { additionalProperties: false }),
  gitlab: Type.Object({ apiUrl: Type.Optional(Type.String()), projects: Type.Optional(List(Type.String({ pattern: '^([0-9]+|[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)+)$' }))) }, { additionalProperties: false }),
  aws: Type.Object({ regions: List(Type.String({ pattern: '^[a-z]{2}(-[a-z]+)+-[0-9]+$' })), endpoint: Type.Optional(Type.String()) }, { additionalProperties: false }),
  kubernetes: Type.Object({ cluster: Type.Optional(Text(100)) }, { additionalProperties: false }),
  azure: Type.Object({ subscription: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$' })) }, { additionalProperties: false }),
  argocd: Type.Object({}, { additionalProperties: false }),
  pagerduty: Type.Object({}, { additionalProperties: false }),
  cloudevents: Type.Object({}, { additionalProperties: false }),
  webhook: Type.Object({}, { additionalProperties: false }),
};

/** What each field must be, in words (TypeBox's own messages speak of schemas). */
const EXPECTED: Record<string, string> = {
  apiUrl: 'must be an http or https URL',
  repos: `must be a list of at most ${MAX_CONFIG_ITEMS} repositories written owner/name`,
  projects: `must be a list of at most ${MAX_CONFIG_ITEMS} projects, each a numeric id or a path group/project`,
  regions: `must be a list of AWS regions such as eu-west-1 (at least one, at most ${MAX_CONFIG_ITEMS})`,
  endpoint: 'must be an http or https URL',
  cluster: 'must be a name of 1 to 100 characters without control characters',
  subscription: 'must be an Azure subscription id (a GUID)',
};

export type SourceConfig = Record<string, unknown>;

/**
 * The stored config of a connection: the input checked against its kind, defaults filled in
 * (GitHub's and GitLab's public APIs; a cluster named after the connection). `judge` refuses URLs
 * that can never be reached (cloud metadata, link-local).
 */
export function checkSourceConfig(kind: SourceKind, raw: unknown, name: string, judge: (url: string) => LiteralJudgement): SourceConfig {
  const input = raw === undefined || raw === null ? {} : raw;
  if (typeof input !== 'object' || Array.isArray(input)) throw invalid('config', 'must be an object of the connection\'s settings');
  const schema = SCHEMAS[kind];
  const o = input as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    const known = (schema as { properties?: Record<string, unknown> }).properties ?? {};
    if (!(key in known)) {
      const fields = Object.keys(known);
      throw invalid(`config.${key}`, `is not a setting of a ${kind} connection${fields.length ? ` (its settings: ${fields.join(', ')})` : ' (it has none)'}`);
    }
  }
  if (kind === 'aws' && o.regions === undefined) throw invalid('config.regions', 'is required: the AWS regions whose CloudTrail is read, such as eu-west-1');
  const first = [...Value.Errors(schema, o)][0];
  if (first) {
    const segments = (first.instancePath ?? '').split('/').filter(Boolean);
    const key = segments[0] ?? '';
    throw invalid(segments.length ? `config.${segments.join('.')}` : 'config', EXPECTED[key] ?? 'is not valid');
  }
  const out: SourceConfig = { ...o };
  if (kind === 'github') {
    out.apiUrl = apiUrl('config.apiUrl', (o.apiUrl as string | undefined) ?? GITHUB_API_URL, judge);
    out.repos = unique((o.repos as string[] | undefined) ?? []);
  }
  if (kind === 'gitlab') {
    out.apiUrl = apiUrl('config.apiUrl', (o.apiUrl as string | undefined) ?? GITLAB_API_URL, judge);
    out.projects = unique((o.projects as string[] | undefined) ?? []);
  }
  if (kind === 'aws') {
    const regions = unique(o.regions as string[]);
    if (regions.length === 0) throw invalid('config.regions', 'is required: the AWS regions whose CloudTrail is read, such as eu-west-1');
    out.regions = regions;
    if (o.endpoint !== undefined) out.endpoint = apiUrl('config.endpoint', o.endpoint as string, judge);
  }
  if (kind === 'kubernetes') out.cluster = ((o.cluster as string | undefined) ?? name).trim();
  return out;
}

function apiUrl(field: string, raw: string, judge: (url: string) => LiteralJudgement): string {
  const u = checkUrl(field, raw, judge);
  if (u.username || u.password) throw invalid(field, 'must not carry credentials: give them as the connection\'s credential, which is kept sealed');
  return raw.replace(/\/+$/, '');
}

const unique = (xs: string[]) => [...new Set(xs)];

/** AWS keys for LookupEvents, as the sealed credential holds them (JSON). */
export type AwsCredential = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };

/**
 * The credential a scheduled pull signs in with, as it is sealed: a GitHub or GitLab token as
 * given, AWS keys as JSON. Only pull kinds have one; a push kind's senders prove themselves with
 * the connection's secret instead.
 */
export function checkCredential(kind: SourceKind, raw: unknown): string {
  if (!PULL_KINDS.includes(kind)) throw invalid('credential', `is not used by a ${kind} connection: its sender proves itself with the connection's secret`);
  if (kind === 'aws') {
    const o = raw as Partial<AwsCredential> | null;
    if (!o || typeof o !== 'object' || Array.isArray(o)) throw invalid('credential', 'must be AWS keys {accessKeyId, secretAccessKey, sessionToken?} of a principal allowed cloudtrail:LookupEvents');
    for (const k of ['accessKeyId', 'secretAccessKey'] as const) {
      if (typeof o[k] !== 'string' || !o[k] || /\s/.test(o[k])) throw invalid(`credential.${k}`, 'is required, without spaces');
    }
    if (o.sessionToken !== undefined && (typeof o.sessionToken !== 'string' || /\s/.test(o.sessionToken))) throw invalid('credential.sessionToken', 'must be the session token as AWS gave it, without spaces');
    const extra = Object.keys(o).find((k) => !['accessKeyId', 'secretAccessKey', 'sessionToken'].includes(k));
    if (extra) throw invalid(`credential.${extra}`, 'is not part of AWS keys (accessKeyId, secretAccessKey, sessionToken)');
    return JSON.stringify({ accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey, ...(o.sessionToken ? { sessionToken: o.sessionToken } : {}) });
  }
  const what = kind === 'github' ? 'a GitHub token (fine-grained or classic) that can read the repositories' : 'a GitLab access token with read_api';
  if (typeof raw !== 'string' || raw.trim() === '') throw invalid('credential', `must be ${what}`);
  if (/\s/.test(raw.trim()) || raw.length > 1000) throw invalid('credential', `must be ${what}, without spaces`);
  return raw.trim();
}
