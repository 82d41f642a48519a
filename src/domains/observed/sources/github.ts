import type { IntakeAdapter, PullAdapter } from '../observed-types.js';
import { bearerMatches } from './auth.js';

/** Stub: the github adapter (filled in by its helper). */
export const githubIntake: IntakeAdapter = {
  kind: 'github',
  authenticate: bearerMatches,
  parse: () => ({ events: [], ignored: 1, noise: 0, rejected: [] }),
};

/** Stub: the github REST pull (deployments, merged changes). */
export const githubPull: PullAdapter = {
  kind: 'github',
  pull: async () => ({ events: [], ignored: 0, noise: 0, rejected: [] }),
};
