/**
 * The AWS SDK's part of the CloudTrail reader, in a module of our own that cloud-trail-client.ts
 * loads at the first read. A module of ours: in the bundle, import() of a CommonJS package itself
 * would give only its default export.
 */
export { CloudTrailClient, LookupEventsCommand } from '@aws-sdk/client-cloudtrail';
