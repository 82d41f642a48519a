/**
 * Every action the ledger records, in one list grouped by the domain that writes it.
 * appendAuditEvent refuses any other, and docs/ledger.md's list of actions is rendered from this
 * one (audit-actions.test.ts compares them). A new action: add it to its group here, then paste
 * renderAuditActions() into docs/ledger.md between the audit-actions markers.
 */
export const AUDIT_ACTIONS = {
  auth: {
    label: 'organisations, people, sign-in and tokens',
    actions: [
      'organization.created', 'user.created', 'user.password_set', 'user.display_name_changed',
      'membership.added', 'membership.role_changed', 'membership.removed',
      'signin_link.created', 'session.created', 'session.ended', 'auth.signin_throttled',
      'token.created', 'token.revoked',
    ],
  },
  flags: {
    label: 'environments, flags, change requests and SDK keys',
    actions: [
      'environment.created', 'environment.policy_updated',
      'flag.created', 'flag.updated', 'flag.unchanged', 'flag.deleted',
      'flag_request.proposed', 'flag_request.approved', 'flag_request.rejected', 'flag_request.expired',
      'sdk_key.created', 'sdk_key.revoked', 'settings.flags_updated',
    ],
  },
  incidents: {
    label: 'incident hooks and the channel post',
    actions: ['incident.opened', 'incident.posted', 'incident.post_skipped', 'settings.incidents_updated'],
  },
  catalogue: {
    label: 'imports, staleness, aliases and manual services',
    actions: [
      'catalogue.imported', 'catalogue.swept', 'settings.catalogue_updated',
      'component_alias.set', 'component_alias.deleted', 'manual_service.created', 'manual_service.deleted',
    ],
  },
  changes: {
    label: 'the lifecycle, decisions, settings, before-states, rollbacks and post-implementation reviews of changes',
    actions: [
      'change.registered', 'change.edited', 'change.submitted', 'change.components_mapped', 'change.mapped',
      'change.classified', 'change.approval_given', 'change.approved', 'change.rejected', 'change.expired',
      'change.started', 'change.completed', 'change.aborted', 'change.window_ended', 'change.outcome_recorded',
      'change.evaluation_requested', 'change.reported', 'change.report_revised', 'change.cancelled', 'change.window_extended',
      'change.reopened', 'change.approvals_voided', 'change.reclassified', 'change.class_dropped',
      'change.window_bypassed', 'change.start_deferred',
      'change.reviewed', 'change.review_reminder_sent',
      'change.before_state_captured', 'change.prestate_blocked', 'change.validated',
      'change.rollback_released', 'change.rollback_requested', 'change.rolled_back', 'change.rollback_failed',
      'change.auto_rollback', 'change.rollback_escalated', 'change.rollback_skipped', 'change.template_demoted',
      'settings.changes_updated', 'settings.change_approvers_updated', 'org_change.ticketing',
    ],
  },
  governance: {
    label: 'standard-change templates, change and freeze windows',
    actions: [
      'template.created', 'template.edited', 'template.certified', 'template.withdrawn', 'template.demoted',
      'window.created', 'window.updated', 'window.deleted', 'window.imported',
    ],
  },
  deliveries: {
    label: 'callbacks and ticket steps',
    actions: [
      'change.callback_delivered', 'change.callback_failed', 'change.callback_test',
      'change.ticket_step_delivered', 'change.ticket_step_failed', 'org_change.ticketing_test',
    ],
  },
  alerts: {
    label: 'alerts received, holds and their release',
    actions: ['alerts.received', 'alerts.hold_started', 'alerts.hold_released', 'alerts.silence_set', 'alerts.silence_failed'],
  },
  alertSettings: {
    label: 'alert sources settings, Alertmanagers and relay destinations',
    actions: [
      'settings.alerts_updated', 'alertmanager.created', 'alertmanager.updated', 'alertmanager.deleted', 'alertmanager.tested',
      'alert_destination.created', 'alert_destination.updated', 'alert_destination.deleted', 'alert_destination.tested', 'alert_destination.relay_failed',
    ],
  },
  evidenceSources: {
    label: 'evidence sources (metrics and logs) and the evidence settings',
    actions: ['evidence_source.created', 'evidence_source.updated', 'evidence_source.deleted', 'evidence_source.tested', 'settings.evidence_updated'],
  },
  aiProvider: {
    label: 'the AI provider of change assessment',
    actions: ['ai_provider.set', 'ai_provider.deleted', 'ai_provider.tested'],
  },
  changeSources: {
    label: 'change sources (the connections of observed changes), their pulls and the observed-change settings',
    actions: [
      'change_source.created', 'change_source.updated', 'change_source.deleted', 'change_source.secret_rotated',
      'change_source.tested', 'change_source.pulled', 'observed_settings.updated', 'observed.relinked',
    ],
  },
  observedIntake: {
    label: 'observed changes received from a change source, and writes that confirmed a planned change',
    actions: ['change_source.received', 'change.confirmed_by_audit_log', 'change.unauthorized_detected', 'change.denied_attempt'],
  },
  unmanaged: {
    label: 'the reference rule and its settings, the ITSM webhook token, the change tickets ITSM tools send, and the cases of unmanaged changes with their answers',
    actions: [
      'unmanaged_settings.updated', 'organization.itsm_webhook_token', 'itsm_ticket.received',
      'case.opened', 'case.reopened', 'case.rollback_approved', 'case.rolled_back', 'case.change_kept', 'case.resolved', 'change.kept',
    ],
  },
} as const satisfies Record<string, { label: string; actions: readonly string[] }>;

export type AuditAction = (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS]['actions'][number];

const KNOWN: ReadonlySet<string> = new Set(Object.values(AUDIT_ACTIONS).flatMap((g) => g.actions));

export function isAuditAction(action: string): action is AuditAction {
  return KNOWN.has(action);
}

/** docs/ledger.md's list of actions, rendered from the registry (the audit-actions test compares them). */
export function renderAuditActions(): string {
  return Object.entries(AUDIT_ACTIONS)
    .map(([domain, g]) => `- **${domain}** (${g.label}): ${g.actions.map((a) => `\`${a}\``).join(', ')}`)
    .join('\n');
}
