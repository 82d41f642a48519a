import type { IntakeAdapter, PullAdapter } from '../observed-types.js';
import { bearerMatches } from './auth.js';

/** Stub: the gitlab adapter (filled in by its helper). */
export const gitlabIntake: IntakeAdapter = {
  kind: 'gitlab',
  authenticate: bearerMatches,
  parse: () => ({ events: [], ignored: 1, noise: 0, rejected: [] }),
};

/** Stub: the gitlab REST pull (deployments, merged changes). */
export const gitlabPull: PullAdapter = {
  kind: 'gitlab',
  pull: async () => ({ events: [], ignored: 0, noise: 0, rejected: [] }),
};
