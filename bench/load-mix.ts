/**
 * The mixed load of `npm run bench -- load`, shared by the orchestrator (bench/load.ts) and the
 * load-generator process (bench/load-client.ts): what each kind of request is, its share, and the
 * credentials and fixtures the generator is handed.
 */

export const OPS = ['flag-read', 'list', 'audit', 'change', 'toggle', 'ofrep'] as const;
export type Op = (typeof OPS)[number];

/** The mix, in per cent. */
export const MIX: Record<Op, number> = { 'flag-read': 40, list: 15, audit: 10, change: 5, toggle: 25, ofrep: 5 };

export const OP_WHAT: Record<Op, string> = {
  'flag-read': 'GET /api/flags/{key}',
  list: 'GET /api/changes?limit=50 | GET /api/flags?namespace=ops.load.nsN.*',
  audit: 'GET /api/audit?limit=50 (half with action=flag.)',
  change: 'POST /api/changes (pipeline listener, API token)',
  toggle: 'PUT /api/flags/{key}/environments/{production|staging}',
  ofrep: 'POST /ofrep/v1/evaluate/flags/{key} (SDK key)',
};

/**
 * An API token is allowed 60 requests a minute, counted in PostgreSQL from its first request. The
 * generator keeps its own count a little under that and a little longer than a minute, so it never
 * runs into the limit while it has a token to spare; if it ever runs out, it uses one anyway and
 * the 429 is counted like any other error.
 */
export const TOKEN_BUDGET = 55;
export const TOKEN_WINDOW_MS = 62_000;

export type Replica = { url: string; pipelineUrl: string };

export type Fixtures = {
  /** Session cookies (`cl_session=…`) with their CSRF tokens: one per virtual user, as people in the UI. */
  sessions: Array<{ cookie: string; csrf: string }>;
  /** API token secrets (changes:write, flags:read/write, audit:read). */
  tokens: string[];
  sdkKeys: string[];
  flags: string[];
  namespaces: string[];
  services: string[];
};

export type PhaseOrder = {
  kind: 'run';
  label: string;
  replicas: Replica[];
  fixtures: Fixtures;
  concurrency: number;
  warmupMs: number;
  measureMs: number;
  /** Share of the session-capable requests (all but changes and OFREP) sent with a token to the pipeline listener instead. */
  tokenShare: number;
  seed: number;
};

export type OpResult = { latencies: number[]; statuses: Record<string, number> };

export type PhaseResult = {
  kind: 'result';
  label: string;
  elapsedMs: number;
  perOp: Record<Op, OpResult>;
  /** Requests per listener (main / pipeline) and per replica, for the round-robin check. */
  perReplica: number[];
  viaToken: number;
  tokensUsed: number;
  tokensExhausted: number;
  /** The generator's own CPU (user + system) during the measured window, ms. */
  cpuMs: number;
  sampleErrors: string[];
};

export type ChildMessage = { kind: 'measuring' } | PhaseResult | { kind: 'failed'; message: string };

/** Picks an op from a uniform number in [0, 1) by the mix. */
export function pickOp(u: number): Op {
  let acc = 0;
  const x = u * 100;
  for (const op of OPS) {
    acc += MIX[op];
    if (x < acc) return op;
  }
  return OPS[OPS.length - 1]!;
}
