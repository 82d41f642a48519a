import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from './platform/paths.js';

export type StoreConfig = { dataDir: string; databaseUrl: string | null };

export type ServeConfig = StoreConfig & {
  host: string;
  port: number;
  pipelineHost: string;
  pipelinePort: number;
  /** The address people reach the UI at; sign-in links are built on it. */
  publicUrl: string | null;
  secureCookies: boolean;
  orgName: string;
  ownerEmail: string;
  workerPollMs: number;
  /** Let outbound posts reach loopback and private networks (an on-premises chat server). */
  outboundAllowPrivate: boolean;
};

export const version: string = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

export function storeConfig(o: { data?: string; databaseUrl?: string }, env = process.env): StoreConfig {
  return Object.freeze({
    dataDir: resolve(o.data ?? env.CHANGELEDGER_DATA ?? './data'),
    databaseUrl: o.databaseUrl ?? env.DATABASE_URL ?? null,
  });
}

function port(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number (0–65535), got "${text}"`);
  return n;
}

export function serveConfig(o: Record<string, string | undefined>, env = process.env): ServeConfig {
  const publicUrl = o.publicUrl ?? env.CHANGELEDGER_PUBLIC_URL ?? null;
  if (publicUrl !== null && !/^https?:\/\/[^\s/]+/.test(publicUrl)) throw new Error(`--public-url must be an http(s) URL, got "${publicUrl}"`);
  return Object.freeze({
    ...storeConfig(o, env),
    host: o.host ?? env.HOST ?? 'localhost',
    port: port(o.port ?? env.PORT ?? '8080', '--port'),
    pipelineHost: o.pipelineHost ?? env.PIPELINE_HOST ?? 'localhost',
    pipelinePort: port(o.pipelinePort ?? env.PIPELINE_PORT ?? '4320', '--pipeline-port'),
    publicUrl: publicUrl?.replace(/\/+$/, '') ?? null,
    secureCookies: (publicUrl ?? '').startsWith('https://'),
    orgName: o.orgName ?? env.CHANGELEDGER_ORG_NAME ?? 'My organisation',
    ownerEmail: o.ownerEmail ?? env.CHANGELEDGER_OWNER_EMAIL ?? 'owner@localhost',
    workerPollMs: 1_000,
    outboundAllowPrivate: (env.CHANGELEDGER_OUTBOUND_ALLOW_PRIVATE ?? '') === '1',
  });
}
