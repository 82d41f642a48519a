import type { IntakeAdapter, PullAdapter } from '../observed-types.js';
import { bearerMatches } from './auth.js';

/** Stub: the aws adapter (filled in by its helper). */
export const awsIntake: IntakeAdapter = {
  kind: 'aws',
  authenticate: bearerMatches,
  parse: () => ({ events: [], ignored: 1, noise: 0, rejected: [] }),
};

/** Stub: CloudTrail LookupEvents through @aws-sdk/client-cloudtrail. */
export const cloudtrailPull: PullAdapter = {
  kind: 'aws',
  pull: async () => ({ events: [], ignored: 0, noise: 0, rejected: [] }),
};
