import type { IntakeAdapter } from '../observed-types.js';
import { bearerMatches } from './auth.js';

/** Stub: the cloudevents adapter (filled in by its helper). */
export const cloudeventsIntake: IntakeAdapter = {
  kind: 'cloudevents',
  authenticate: bearerMatches,
  parse: () => ({ events: [], ignored: 1, noise: 0, rejected: [] }),
};
