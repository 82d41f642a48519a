/**
 * Before-state (last-known-good) captures: what a change's target looked like before it, as the
 * pipeline or a person gave it, and the rule that a change without one may not start. Pure.
 *
 * A capture is evidence, so it says how good it is: `completeness` (does it hold the whole state),
 * `prestateStatus` (did the thing exist before: a creation has nothing to go back to) and
 * `restorable` (are the stored bytes exactly what was there, so they could be put back).
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../platform/canonical-json.js';
import { isProduction } from './risk-tier.js';

/** An artifact (a manifest, a config file) is kept up to 256 KiB. */
export const MAX_BEFORE_STATE_BYTES = 256 * 1024;
export const COMPLETENESS = ['complete', 'partial', 'unknown'] as const;
export type Completeness = (typeof COMPLETENESS)[number];
export const PRESTATE_STATUSES = ['present', 'absent', 'unknown'] as const;
export type PrestateStatus = (typeof PRESTATE_STATUSES)[number];
export const CAPTURE_METHODS = ['previous_version', 'previous_commit', 'base_commit', 'artifact'] as const;
export type CaptureMethod = (typeof CAPTURE_METHODS)[number];

/** What a pipeline or a person sends: any of the three, with how complete it is. */
export type BeforeStateInput = {
  previousVersion?: string; previousCommit?: string;
  /** Text is kept byte for byte; a JSON value is kept as canonical JSON (so not byte-exact). */
  artifact?: string | Record<string, unknown> | unknown[];
  artifactName?: string; completeness?: Completeness; prestateStatus?: PrestateStatus;
};

export type CaptureDraft = {
  method: CaptureMethod; previousVersion: string | null; previousCommit: string | null;
  artifact: string | null; artifactType: 'json' | 'text' | null; artifactName: string | null; sizeBytes: number;
  sha256: string; completeness: Completeness; prestateStatus: PrestateStatus; restorable: boolean;
};

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** The bytes an artifact is stored as, and whether they are exactly what was sent. */
export function artifactBytes(a: NonNullable<BeforeStateInput['artifact']>): { text: string; type: 'json' | 'text'; exact: boolean; size: number } {
  const text = typeof a === 'string' ? a : canonicalJson(a);
  return { text, type: typeof a === 'string' ? 'text' : 'json', exact: typeof a === 'string', size: Buffer.byteLength(text, 'utf8') };
}

/** Whether anything was given; a refusal names the field. */
export function beforeStateProblem(b: BeforeStateInput, field = 'beforeState'): { field: string; message: string; status: 400 | 413 } | null {
  const given = [b.previousVersion?.trim(), b.previousCommit?.trim()].filter(Boolean).length + (b.artifact !== undefined ? 1 : 0);
  if (given === 0) return { field, message: 'give the before-state: previousVersion, previousCommit or an artifact', status: 400 };
  if (b.artifact !== undefined) {
    const { size } = artifactBytes(b.artifact);
    if (size > MAX_BEFORE_STATE_BYTES) {
      return { field: `${field}.artifact`, message: `the before-state artifact is ${Math.ceil(size / 1024)} KiB: at most ${MAX_BEFORE_STATE_BYTES / 1024} KiB is kept (send a digest or the file that matters)`, status: 413 };
    }
    if (size === 0) return { field: `${field}.artifact`, message: 'the before-state artifact is empty', status: 400 };
  }
  return null;
}

/**
 * The captures one submission makes, one per thing given. A version or a commit is a reference
 * the pipeline can redeploy (restorable); a commit holds the whole state in the repository, a
 * version names a build but not its configuration (partial) unless the sender says otherwise.
 */
export function capturesOf(b: BeforeStateInput): CaptureDraft[] {
  const out: CaptureDraft[] = [];
  // The completeness a sender gives is the artifact's when it sends one, else the references'.
  const refCompleteness = b.artifact === undefined ? b.completeness : undefined;
  const base = { previousVersion: null, previousCommit: null, artifact: null, artifactType: null, artifactName: null, sizeBytes: 0, prestateStatus: b.prestateStatus ?? 'present' } as const;
  const version = b.previousVersion?.trim();
  if (version) out.push({ ...base, method: 'previous_version', previousVersion: version, sha256: sha256(version), completeness: refCompleteness ?? 'partial', restorable: true });
  const commit = b.previousCommit?.trim();
  if (commit) out.push({ ...base, method: 'previous_commit', previousCommit: commit, sha256: sha256(commit), completeness: refCompleteness ?? 'complete', restorable: true });
  if (b.artifact !== undefined) {
    const a = artifactBytes(b.artifact);
    out.push({
      ...base, method: 'artifact', artifact: a.text, artifactType: a.type, artifactName: b.artifactName?.trim() || null, sizeBytes: a.size,
      sha256: sha256(a.text), completeness: b.completeness ?? 'unknown', restorable: a.exact && (b.prestateStatus ?? 'present') === 'present',
    });
  }
  return out;
}

/** The repository commit a pipeline starts from is its before-state: recorded as a capture of its own. */
export function baseCommitCapture(commit: string): CaptureDraft {
  return {
    method: 'base_commit', previousVersion: null, previousCommit: commit, artifact: null, artifactType: null, artifactName: null, sizeBytes: 0,
    sha256: sha256(commit), completeness: 'complete', prestateStatus: 'present', restorable: true,
  };
}

/** One digest over every capture of a change (order-free), bound into the approval digest; null without any. */
export function captureDigest(captures: ReadonlyArray<{ method: string; sha256: string }>): string | null {
  if (captures.length === 0) return null;
  const parts = captures.map((c) => `${c.method}:${c.sha256}`).sort();
  return `sha256:${sha256(canonicalJson(parts))}`;
}

export type BeforeStateNeed = { required: boolean; satisfied: boolean; reason: string };

/**
 * The before-state rule: under `production` a change naming a production environment needs one,
 * under `always` every change, under `never` none. A capture satisfies it; so does a repository
 * base commit, which is the before-state of a change built from a repository.
 */
export function beforeStateNeed(f: { rule: 'production' | 'always' | 'never'; environment: string | null; captures: number; baseCommit: string | null }): BeforeStateNeed {
  if (f.rule === 'never') return { required: false, satisfied: f.captures > 0, reason: 'the organisation does not require a before-state' };
  if (f.rule === 'production' && isProduction(f.environment) !== true) {
    return { required: false, satisfied: f.captures > 0, reason: f.environment ? `${f.environment} is not a production environment` : 'it names no environment, and only production changes need a before-state' };
  }
  const where = f.rule === 'always' ? 'every change' : `a change to ${f.environment} (production)`;
  if (f.captures > 0) return { required: true, satisfied: true, reason: `${where} needs a before-state, and it has ${f.captures} capture${f.captures === 1 ? '' : 's'}` };
  if (f.baseCommit) return { required: true, satisfied: true, reason: `${where} needs a before-state: the repository base commit ${f.baseCommit} is one` };
  return {
    required: true, satisfied: false,
    reason: `${where} needs a before-state before it starts: send previousVersion, previousCommit or a beforeState artifact (POST /api/changes/{id}/before-state), or name pipeline.baseCommit`,
  };
}
