export * from './audit-event.js';
export * from './audit-actions.js';
export { appendAtCommit, appendAuditEvent, appendAuditEvents, createLedgerHead, type AlongsideWrite } from './ledger-store.js';
export * from './ledger-queries.js';
export { ledgerRoutes, toFilter, publicEvent } from './ledger-routes.js';
export { exportLedger, type ExportLine } from './ledger-export.js';
export { verifyExportFile, EXPORT_FORMAT, type ExportTrailer, type FileVerifyResult } from './ledger-file.js';
