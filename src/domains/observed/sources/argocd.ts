import type { IntakeAdapter } from '../observed-types.js';
import { bearerMatches } from './auth.js';

/** Stub: the argocd adapter (filled in by its helper). */
export const argocdIntake: IntakeAdapter = {
  kind: 'argocd',
  authenticate: bearerMatches,
  parse: () => ({ events: [], ignored: 1, noise: 0, rejected: [] }),
};
