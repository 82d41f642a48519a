import type { BeforeStateFields, Completeness } from '../api/rollback-types';

// A before-state as typed in a form (the register form, the change page's "Add a before-state"),
// and what it sends: only what was given; nothing at all when nothing was.

export type BeforeStateDraft = {
  previousVersion: string;
  previousCommit: string;
  artifactName: string;
  artifact: string;
  /** '' leaves it to the server: a version is partial, a commit complete, an artifact unknown. */
  completeness: Completeness | '';
};

export const emptyBeforeState: BeforeStateDraft = { previousVersion: '', previousCommit: '', artifactName: '', artifact: '', completeness: '' };

/** The fields to send, or null when the draft gives nothing. The artifact goes as typed: text is kept byte for byte. */
export function beforeStateBody(d: BeforeStateDraft): BeforeStateFields | null {
  const out: BeforeStateFields = {};
  if (d.previousVersion.trim() !== '') out.previousVersion = d.previousVersion.trim();
  if (d.previousCommit.trim() !== '') out.previousCommit = d.previousCommit.trim();
  if (d.artifact.trim() !== '') {
    out.beforeState = { artifact: d.artifact };
    if (d.artifactName.trim() !== '') out.beforeState.artifactName = d.artifactName.trim();
  }
  if (d.completeness !== '' && Object.keys(out).length > 0) out.beforeState = { ...out.beforeState, completeness: d.completeness };
  return Object.keys(out).length === 0 ? null : out;
}
