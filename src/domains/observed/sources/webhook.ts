import type { IntakeAdapter } from '../observed-types.js';
import { bearerMatches } from './auth.js';

/** Stub: the webhook adapter (filled in by its helper). */
export const webhookIntake: IntakeAdapter = {
  kind: 'webhook',
  authenticate: bearerMatches,
  parse: () => ({ events: [], ignored: 1, noise: 0, rejected: [] }),
};
