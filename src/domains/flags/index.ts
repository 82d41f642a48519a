export { FlagService, type FreezeCheck, type WriteMeta, type WriteResult } from './flag-service.js';
export type { FlagRecord } from './flag-record.js';
