import type { IntakeAdapter } from '../observed-types.js';
import { bearerMatches } from './auth.js';

/** Stub: the azure adapter (filled in by its helper). */
export const azureIntake: IntakeAdapter = {
  kind: 'azure',
  authenticate: bearerMatches,
  parse: () => ({ events: [], ignored: 1, noise: 0, rejected: [] }),
};
