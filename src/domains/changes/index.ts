/** What other domains and the composition root may use of changes. */
export { ChangeService, silentNotifier, TIMER_JOB, type ChangeEvent, type ChangeNotifier, type RegisterInput } from './change-service.js';
export { ApprovalService } from './approval-service.js';
export { ChangeSettingsService, readApproverAndOwnerEmails, readApprovers, readSettings, readTicketing, type ChangeSettings } from './change-settings.js';
export type { Change, ChangeKind, Outcome, Impact, Report } from './change-store.js';
export { displayId, findReport, listReports, IMPACTS } from './change-store.js';
export { unknownReport, collectionFailedReport, NOT_CONFIGURED, type ChangeReporter, type ReportRecord } from './change-reporter.js';
export { CHANGE_STATUSES, FINAL_STATUSES, type ChangeStatus } from './change-lifecycle.js';
export { statusOf } from './change-view.js';
export { changesCovering, readChangeScope, type ChangeScope, type CoveringChange, type ScopeEntity } from './change-scope.js';
export { NO_SUPPRESSION, type HoldMode, type Suppression, type SuppressionReader, type SilenceView } from './change-suppression.js';
export { ClassService } from './class-service.js';
export { CHANGE_KINDS } from './change-store.js';
export { CHANGE_CLASSES, CLASS_POLICIES, type TemplateScope } from './change-class.js';
export { RISK_TIERS, isProduction } from './risk-tier.js';
export { NO_GOVERNANCE, type GovernanceReader, type GovernanceView, type WindowFacts, type WindowVerdict, type WindowConflict } from './change-governance.js';
export { WindowVerdictBody, WindowConflictBody, WindowRefBody } from './change-answers.js';
export { readValidation, type ValidationView, type StoredRow } from './validation-store.js';
export { listCaptures, type Capture } from './capture-store.js';
