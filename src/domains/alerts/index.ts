/** What other domains and compose may use of alerts: the words, the intake service, its reads. */
export type * from './alert-types.js';
export { AlertService, noRelay, type IntakeItem, type IntakeRelay, type IntakeResult } from './alert-service.js';
export { DEFAULT_LABEL_MAPPING, checkLabelMapping, type MappingCheck } from './label-mapping.js';
export { labelSetFingerprint } from './fingerprint.js';
export { decideHold, indexHolds, type HoldDecision, type HoldEntry, type HoldIndex } from './hold-decision.js';
export { listHeldAlerts, readAlerts, readAlert, latestStates, readTransitions, listAlerts, insertHoldSubject, type HeldAlert, type LatestState, type AlertFilter } from './alert-store.js';
export { alertEvidence, hasAlertSource, FLAPPING_ENTRIES, type AlertEvidence, type EvidenceChange, type SubjectEvidence } from './alert-evidence.js';
export { checkUrl, checkName } from './destinations/destination-input.js';
