import type { IntakeAdapter } from '../observed-types.js';
import { bearerMatches } from './auth.js';

/** Stub: the pagerduty adapter (filled in by its helper). */
export const pagerdutyIntake: IntakeAdapter = {
  kind: 'pagerduty',
  authenticate: bearerMatches,
  parse: () => ({ events: [], ignored: 1, noise: 0, rejected: [] }),
};
