export * from './audit-event.js';
export { appendAuditEvent, createLedgerHead } from './ledger-store.js';
export * from './ledger-queries.js';
export { ledgerRoutes, toFilter, publicEvent } from './ledger-routes.js';
