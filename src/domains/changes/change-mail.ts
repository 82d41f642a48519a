import type { Clock } from '../../platform/clock.js';
import type { Queryable, Row, Tx } from '../../platform/db/database.js';
import { scheduleMail } from '../../platform/mail/mail-outbox.js';
import type { MailAttachment } from '../../platform/mail/mailer.js';
import { renderMail, type MailContent } from '../../platform/mail/render.js';
import { unknownTier, type ChangeEvent, type ChangeNotifier } from './change-service.js';
import { readApprovers, readSettings } from './change-settings.js';
import { reportCsvFilename } from './report-csp.js';
import { REVIEW_GRACE_DAYS, reviewRequirement } from './review-rule.js';
import { readReviewFacts } from './review-store.js';
import { listDecisions, listReports, type Change, type Decision, type Report } from './change-store.js';

/** Who a message goes to; `critical` marks a critical approver. */
export type Recipient = { email: string; name?: string; critical?: boolean };
/**
 * One occasion's mail: the same subject to each recipient, the body written for each — or, for a
 * report, the stored forms themselves (`stored`), the same for everyone and what report.html shows.
 */
export type Letter = {
  to: Recipient[]; subject: string; content: (r: Recipient) => MailContent;
  stored?: { html: string; text: string; attachments: MailAttachment[] };
};
export type Links = { approve: string; view: string };

/** Long component lists are cut in a message; the change page has them all. */
export const MAX_LISTED = 20;

const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—');
const person = (p: { name?: string; email: string }) => (p.name && p.name !== p.email ? `${p.name} <${p.email}>` : p.email);
const listed = (items: string[]) => (items.length > MAX_LISTED ? [...items.slice(0, MAX_LISTED), `… and ${items.length - MAX_LISTED} more`] : items);
const components = (c: Change) => listed(c.components.map((x) => `${x.name} (${x.kind}${x.name === x.key ? '' : `, ${x.key}`})`));

function about(c: Change): Array<[string, string]> {
  const facts: Array<[string, string]> = [['Change', c.kind === 'other' ? c.displayId : `${c.displayId} · ${c.kind}`], ['Window', `${when(c.windowStart)} – ${when(c.windowEnd)}`], ['Requester', person(c.owner)]];
  if (c.criticality) facts.push(['Criticality', c.criticality]);
  if (c.pipeline?.pipeline || c.pipeline?.run) facts.push(['Pipeline', [c.pipeline.pipeline, c.pipeline.run && `run ${c.pipeline.run}`].filter(Boolean).join(' · ')]);
  return facts;
}

/**
 * Which occurrence of an event a message belongs to, from the change row alone, so that the same
 * transition run twice (a retried timer, a replayed request) names the same occurrence.
 */
export function occurrenceOf(c: Change, event: ChangeEvent): string {
  switch (event) {
    case 'approval_needed':
    case 'mapping_needed':
    case 'critical_needed':
      return c.approvalExpiresAt ?? c.updatedAt;
    case 'approved':
    case 'rejected':
      return c.decidedAt ?? c.updatedAt;
    case 'expired':
      return c.startDeadline ?? c.approvalExpiresAt ?? c.updatedAt;
    case 'reported':
      return `v${c.reportVersion}`;
    case 'review_due':
      return c.finishedAt ?? c.updatedAt;
    default:
      return c.updatedAt;
  }
}

/** The approval request: each approver but the requester; a critical change says it needs a critical approver. */
export function approvalNeeded(c: Change, approvers: Recipient[], links: Links): Letter {
  const waiting = unknownTier(c);
  return {
    to: approvers,
    subject: `Approval needed: ${c.title}`,
    content: (r) => ({
      heading: `Approval needed: ${c.title}`,
      lines: [
        `${person(c.owner)} asks for approval of change ${c.displayId}. It needs ${c.quorum ?? 1} approval${(c.quorum ?? 1) === 1 ? '' : 's'} by ${when(c.approvalExpiresAt)}, or it expires.`,
        ...(c.criticality === 'critical'
          ? [`This change is critical: it needs the approval of a critical approver${r.critical ? ' — you are one' : ''}.`]
          : []),
        ...(waiting.length ? [`Waiting for classification of: ${waiting.map((w) => w.name).join(', ')} — give each a tier on the change page before approving.`] : []),
        ...(c.description ? [c.description] : []),
      ],
      facts: about(c),
      lists: [{ title: 'Components', items: components(c) }],
      actions: [{ label: 'Approve or reject', url: links.approve }, { label: 'View details', url: links.view }],
      note: 'The buttons only open the change page, with its approval panel; sign-in is required and nothing is decided by the click. You get this as a designated approver of the organisation.',
    }),
  };
}

/** A classification made the change critical: the critical approvers are asked by name. */
export function criticalNeeded(c: Change, critical: Recipient[], links: Links): Letter {
  const tiers = c.components.filter((x) => c.componentTiers[x.key] === 'critical').map((x) => x.name);
  return {
    to: critical,
    subject: `Critical approval needed: ${c.title}`,
    content: () => ({
      heading: `Critical approval needed: ${c.title}`,
      lines: [
        `Change ${c.displayId} is now critical${tiers.length ? ` (${tiers.join(', ')})` : ''}: it cannot be approved without a critical approver, and you are one.`,
      ],
      facts: [...about(c), ['Approval deadline', when(c.approvalExpiresAt)]],
      lists: [{ title: 'Components', items: components(c) }],
      actions: [{ label: 'Approve or reject', url: links.approve }, { label: 'View details', url: links.view }],
      note: 'The buttons only open the change page; sign-in is required and nothing is decided by the click.',
    }),
  };
}

export function mappingNeeded(c: Change, to: Recipient[], links: Links): Letter {
  const names = c.unresolved.map((u) => (u.candidates.length ? `${u.query} — maybe ${u.candidates.slice(0, 3).map((x) => `${x.name} (${x.key})`).join(', ')}` : `${u.query} — no candidate`));
  return {
    to,
    subject: `Mapping needed: ${c.title}`,
    content: () => ({
      heading: `Mapping needed: ${c.title}`,
      lines: [
        `${person(c.owner)} registered change ${c.displayId} naming components the catalogue does not know. Map each name to a component (or create a service) on the change page; then it goes on${c.gated ? ' to approval' : ''}.`,
        `Unmapped by ${when(c.approvalExpiresAt)}, the change expires.`,
      ],
      facts: about(c),
      lists: [{ title: 'Not recognised', items: listed(names) }, ...(c.components.length ? [{ title: 'Recognised', items: components(c) }] : [])],
      actions: [{ label: 'Map the components', url: links.view }],
      note: 'You get this as an approver, an owner or an admin of the organisation. Sign-in is required.',
    }),
  };
}

export function decided(c: Change, event: 'approved' | 'rejected', decisions: Decision[], to: Recipient[], links: Links): Letter {
  const approvals = decisions.filter((d) => d.decision === 'approved');
  const latest = decisions.filter((d) => d.decision === (event === 'approved' ? 'approved' : 'rejected')).at(-1);
  const by = latest ? latest.name : 'an approver';
  const lines = event === 'approved'
    ? [
      `Change ${c.displayId} was approved by ${by}${approvals.length > 1 ? ` (${approvals.length} approvals: ${approvals.map((a) => a.name).join(', ')})` : ''}.`,
      c.startDeadline ? `Start it by ${when(c.startDeadline)}, or it expires.` : '',
    ]
    : [`Change ${c.displayId} was rejected by ${by}.`, `Reason: ${latest?.comment ?? c.rejectionReason ?? '—'}`];
  const word = event === 'approved' ? 'Approved' : 'Rejected';
  return {
    to,
    subject: `${word}: ${c.title}`,
    content: () => ({
      heading: `${word}: ${c.title}`, lines: lines.filter(Boolean), facts: about(c), actions: [{ label: 'View details', url: links.view }],
      note: 'You get this as the requester or a recipient of the change.',
    }),
  };
}

export function expired(c: Change, decisions: Decision[], to: Recipient[], links: Links): Letter {
  const approvals = decisions.filter((d) => d.decision === 'approved').length;
  const why = c.startDeadline
    ? `It was approved but not started by its start deadline, ${when(c.startDeadline)}.`
    : c.unresolved.length
      ? `Its components were not mapped by the deadline, ${when(c.approvalExpiresAt)} (not recognised: ${c.unresolved.map((u) => u.query).join(', ')}).`
      : `It was not approved by its approval deadline, ${when(c.approvalExpiresAt)} (${approvals} of ${c.quorum ?? 1} approvals).`;
  return {
    to,
    subject: `Expired: ${c.title}`,
    content: () => ({
      heading: `Expired: ${c.title}`, lines: [`Change ${c.displayId} expired. ${why}`, 'Register it again to go ahead.'], facts: about(c),
      actions: [{ label: 'View details', url: links.view }], note: 'You get this as the requester or a recipient of the change.',
    }),
  };
}

/**
 * The Reported e-mail. A report written with its forms is mailed as itself: its HTML as the body,
 * its text as the alternative, its CSV attached (change-<CHG id>-v<n>.csv), so the mail is exactly
 * what report.html and report.csv serve. A report without forms (written before them) gets the
 * short summary mail.
 */
export function reported(c: Change, report: Pick<Report, 'version' | 'summary'> & Partial<Pick<Report, 'html' | 'textBody' | 'csv'>> | null, to: Recipient[], links: Links): Letter {
  const ai = c.aiImpact ? `, AI ${c.aiImpact}` : '';
  const version = report?.version ?? c.reportVersion;
  const stored = report?.html && report.textBody
    ? {
      html: report.html, text: report.textBody,
      attachments: report.csv ? [{ filename: reportCsvFilename(c.displayId, version ?? 1), contentType: 'text/csv', content: report.csv }] : [],
    }
    : undefined;
  return {
    to,
    subject: `Reported: ${c.title} — impact ${c.impact ?? 'unknown'}${ai}`,
    ...(stored ? { stored } : {}),
    content: () => ({
      heading: `Reported: ${c.title}`,
      lines: [report?.summary ?? 'The report has no summary.'],
      facts: [
        ...about(c), ['Impact', c.impact ?? 'unknown'], ...(c.aiImpact ? [['AI assessment', c.aiImpact] as [string, string]] : []), ['Outcome', c.outcome ?? 'unknown'],
        ['Ran', `${when(c.startedAt)} – ${when(c.finishedAt)}${c.aborted ? ' (aborted)' : ''}`], ['Report', `version ${version}`],
      ],
      actions: [{ label: 'View the report', url: links.view }],
      note: 'You get this as the requester, a recipient of the change or on the organisation’s completion list.',
    }),
  };
}

/** The one reminder of a post-implementation review still missing 3 days after the change finished. */
export function reviewDue(c: Change, reasons: string[], to: Recipient[], links: Links): Letter {
  const why = reasons.length ? reasons.join(', ') : 'it asked for one';
  return {
    to,
    subject: `Review due: ${c.title}`,
    content: () => ({
      heading: `Review due: ${c.title}`,
      lines: [
        `Change ${c.displayId} needs a post-implementation review: ${why}.`,
        `It finished ${when(c.finishedAt)} and nobody has written the review in the ${REVIEW_GRACE_DAYS} days since. Say what happened, the cause, what went well and the follow-ups on the change page.`,
      ],
      facts: [...about(c), ['Outcome', c.outcome ?? 'unknown'], ['Impact', c.impact ?? 'not judged yet'], ['Finished', when(c.finishedAt)]],
      actions: [{ label: 'Write the review', url: links.view }],
      note: 'You get this once, as the requester or a recipient of the change. Sign-in is required.',
    }),
  };
}

/** The rollback sweep found a failed change it must not roll back by itself: the approvers decide. */
export function rollbackEscalated(c: Change, reason: string | null, approvers: Recipient[], links: Links): Letter {
  return {
    to: approvers,
    subject: `Rollback decision needed: ${c.title}`,
    content: (r) => ({
      heading: `Rollback decision needed: ${c.title}`,
      lines: [
        `Change ${c.displayId} failed and was not rolled back automatically: a person decides whether to release its rollback.`,
        `Why it needs you: ${reason ?? 'the sweep gave no reason'}`,
        ...(r.critical ? ['You are a critical approver.'] : []),
      ],
      facts: [...about(c), ['Outcome', c.outcome ?? 'unknown'], ['Finished', when(c.finishedAt)]],
      actions: [{ label: 'Decide on the rollback', url: links.view }],
      note: 'The button only opens the change page; sign-in is required and nothing is decided by the click. You get this as a designated approver of the organisation.',
    }),
  };
}

async function ownersAndAdmins(db: Queryable, orgId: string): Promise<Recipient[]> {
  // The same membership join readApprovers makes: who may act for the organisation.
  const r = await db.query<Row & { email: string; display_name: string }>(
    `SELECT u.email, u.display_name FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.org_id = $1 AND m.role IN ('owner', 'admin') ORDER BY lower(u.email)`,
    [orgId],
  );
  return r.rows.map((x) => ({ email: x.email, name: x.display_name }));
}

/**
 * The e-mails of the change lifecycle. Inside the transition's transaction it puts one outbox job
 * per recipient; the job worker sends them. Events without an e-mail (started, completed,
 * cancelled, mapped) write nothing.
 */
export class ChangeMail implements ChangeNotifier {
  constructor(private readonly deps: { clock: Clock; link: (c: Change, approve?: boolean) => string }) {}

  async letter(tx: Queryable, c: Change, event: ChangeEvent, extra?: Record<string, unknown>): Promise<Letter | null> {
    const links = { approve: this.deps.link(c, true), view: this.deps.link(c) };
    const requester: Recipient = { email: c.owner.email, name: c.owner.name };
    const watchers = [requester, ...c.recipients.map((email) => ({ email }))];
    const notRequester = (r: { userId: string; email: string }) => r.userId !== c.ownerId && r.email.toLowerCase() !== c.owner.email.toLowerCase();
    switch (event) {
      case 'approval_needed': {
        const approvers = (await readApprovers(tx, c.orgId)).filter(notRequester);
        return approvalNeeded(c, approvers.map((a) => ({ email: a.email, name: a.name, critical: a.critical })), links);
      }
      case 'critical_needed': {
        if (c.status !== 'pending_approval') return null;
        if ((await listDecisions(tx, c.id)).some((d) => d.decision === 'approved' && d.critical)) return null;
        const critical = (await readApprovers(tx, c.orgId)).filter((a) => a.critical && notRequester(a));
        return criticalNeeded(c, critical.map((a) => ({ email: a.email, name: a.name, critical: true })), links);
      }
      case 'mapping_needed': {
        const approvers = (await readApprovers(tx, c.orgId)).map((a) => ({ email: a.email, name: a.name }));
        return mappingNeeded(c, [...approvers, ...(await ownersAndAdmins(tx, c.orgId))], links);
      }
      case 'approved':
      case 'rejected':
        return decided(c, event, await listDecisions(tx, c.id), watchers, links);
      case 'expired':
        return expired(c, await listDecisions(tx, c.id), watchers, links);
      case 'reported': {
        const report = (await listReports(tx, c.id)).find((r) => r.version === c.reportVersion) ?? null;
        const completion = (await readSettings(tx, c.orgId)).completionRecipients.map((email) => ({ email }));
        return reported(c, report, [...watchers, ...completion], links);
      }
      case 'review_due': {
        // The reminder job passes the reasons it judged; told without them, the rule judges again.
        const given = Array.isArray(extra?.reasons) ? extra.reasons.filter((x): x is string => typeof x === 'string') : null;
        const facts = given ? null : await readReviewFacts(tx, c.id);
        return reviewDue(c, given ?? (facts ? reviewRequirement(facts).reasons : []), watchers, links);
      }
      case 'rollback_escalated': {
        const approvers = (await readApprovers(tx, c.orgId)).filter(notRequester);
        const reason = typeof extra?.reason === 'string' && extra.reason.trim() ? extra.reason.trim() : null;
        return rollbackEscalated(c, reason, approvers.map((a) => ({ email: a.email, name: a.name, critical: a.critical })), links);
      }
      default:
        return null;
    }
  }

  async notify(tx: Tx, c: Change, event: ChangeEvent, extra?: Record<string, unknown>): Promise<void> {
    const letter = await this.letter(tx, c, event, extra);
    if (!letter) return;
    const occurrence = occurrenceOf(c, event);
    const seen = new Set<string>();
    for (const r of letter.to) {
      const address = r.email.trim();
      const key = address.toLowerCase();
      if (!address || seen.has(key)) continue;
      seen.add(key);
      const { text, html, attachments } = letter.stored ?? { ...renderMail(letter.content(r)), attachments: [] };
      await scheduleMail(tx, this.deps.clock, { orgId: c.orgId, to: address, subject: letter.subject, text, html, attachments, dedupeKey: `mail:${c.id}:${event}:${occurrence}:${key}` });
    }
  }
}
