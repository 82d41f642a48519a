/**
 * The reference rule: with it on, every applied write that an audit log saw (CloudTrail, the Azure
 * activity log, the Kubernetes audit webhook) needs something that vouches for it, checked in this
 * order:
 *   1. it carries the id of an approved or running planned change whose scope covers it;
 *   2. a change ticket that arrived with the organisation's ITSM token matches it;
 *   3. an approved or running planned change covers its service in the blast radius and its time
 *      in the window;
 *   4. its principal is one of the organisation's authorized principals.
 * Pure: the caller reads the planned changes, tickets and settings once per delivery.
 */
import picomatch from 'picomatch';
import type { RecordPrincipal } from '../../changes/change-feed.js';
import { firstMatchingTicket } from './itsm-match.js';
import type { ItsmChangeMatch, PrincipalClass, ReferenceKind, Ticket } from './unmanaged-types.js';

/** The sources whose writes the rule judges: the audit logs. Git, Argo CD and other tools' events are never judged. */
export const JUDGED_SOURCES = ['aws', 'azure', 'kubernetes'] as const;

export const NO_REFERENCE = 'no reference found (no ticket, approval or signed change request)';

/** A planned change that could vouch for a write: approved, running, or run already (its window is what counts). */
export type Vouching = {
  id: string; displayId: string; status: string;
  /** The window as planned, widened by when it really ran. */
  from: number; until: number;
  /** Catalogue keys of the change's scope: its blast radius's services and assets. */
  scope: ReadonlySet<string>;
};

/**
 * The statuses of a change cleared to run: approved, or scheduled (the organisation's policy asked
 * for no approval), and those that have run since. Drafts, waiting or refused ones vouch for nothing.
 */
export const VOUCHING_STATUSES = ['scheduled', 'approved', 'active', 'evaluating', 'reported'] as const;

export type WriteFacts = {
  source: string; denied: boolean; outcome: string | null; principalClass: PrincipalClass; principal: RecordPrincipal;
  at: string; services: string[]; resource: string | null; changeRef: string | null;
};

export type RuleContext = {
  enabled: boolean;
  /** Planned changes by display id (CHG-XXXXXXXX, upper case), and the ones whose window may cover the writes. */
  byDisplayId: ReadonlyMap<string, Vouching>;
  vouching: readonly Vouching[];
  /** Tickets that arrived with the ITSM token (the only ones that count), newest first. */
  tickets: readonly Ticket[];
  /** Tickets kept without the token: never a reference, but a flagged write says when one would have matched. */
  unverified?: readonly Ticket[];
  itsmMatch: ItsmChangeMatch;
  principals: PrincipalMatcher;
};

export type Judgement = { authorized: boolean | null; reason: string | null; reference: ReferenceKind | null };

export const NOT_JUDGED: Judgement = { authorized: null, reason: null, reference: null };

/** Every name a principal goes by: the one shown, its id, and a role session's role ARN. */
export const principalNames = (p: RecordPrincipal): string[] =>
  [p.name, p.id, p.detail?.roleArn, p.detail?.arn, p.detail?.sourceIdentity].filter((x): x is string => typeof x === 'string' && x !== '');

/**
 * The authorized principals as one matcher. The globs are joined into one regular expression (one
 * scan per name however many globs), and a name seen once in a delivery is not matched again.
 */
export type PrincipalMatcher = { match(p: RecordPrincipal): string | null };

export function principalMatcher(globs: readonly string[]): PrincipalMatcher {
  if (!globs.length) return { match: () => null };
  const sources = globs.map((g) => picomatch.makeRe(g, { dot: true, nocase: true }).source);
  // Each source is anchored ^…$ already; the named groups are dropped by the join, so find the glob after a hit.
  const one = new RegExp(sources.map((s) => `(?:${s})`).join('|'), 'i');
  const each = globs.map((g, i) => [g, new RegExp(sources[i]!, 'i')] as const);
  const seen = new Map<string, string | null>();
  const of = (name: string): string | null => {
    let hit = seen.get(name);
    if (hit === undefined) {
      hit = one.test(name) ? each.find(([, re]) => re.test(name))?.[0] ?? null : null;
      if (seen.size < 10_000) seen.set(name, hit);
    }
    return hit;
  };
  return {
    match(p) {
      for (const n of principalNames(p)) {
        const g = of(n);
        if (g) return g;
      }
      return null;
    },
  };
}

const covers = (c: Vouching, services: readonly string[]) => services.some((s) => c.scope.has(s));
const hhmm = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** Whether the rule judges this write at all, and why not when it does not. */
export function judged(w: WriteFacts, enabled: boolean): boolean {
  if (!enabled || w.denied || w.outcome === 'failed') return false;
  if (!(JUDGED_SOURCES as readonly string[]).includes(w.source)) return false;
  // The service-identity filter comes first: plumbing and our own echo are never asked for a reference.
  return w.principalClass !== 'system' && w.principalClass !== 'changeledger';
}

export function judgeWrite(w: WriteFacts, ctx: RuleContext): Judgement {
  if (!judged(w, ctx.enabled)) return NOT_JUDGED;
  const at = Date.parse(w.at);
  const refNote: string[] = [];

  if (w.changeRef) {
    const c = ctx.byDisplayId.get(w.changeRef.toUpperCase());
    if (!c) refNote.push(`it carries ${w.changeRef.toUpperCase()}, which is no approved planned change`);
    else if (!covers(c, w.services)) refNote.push(`it carries ${c.displayId}, whose scope does not cover ${w.services.length ? w.services.join(', ') : 'this unmapped write'}`);
    else return { authorized: true, reference: 'change_id', reason: `carries ${c.displayId}, an approved change whose scope covers ${w.services.join(', ')}` };
  }

  // A ticket names a service as people do (checkout), the record by its catalogue key (svc:checkout).
  const asTicketSees = () => ({ at: w.at, services: [...new Set([...w.services, ...w.services.map((s) => s.slice(s.indexOf(':') + 1))])], resource: w.resource });
  if (ctx.tickets.length) {
    const t = firstMatchingTicket(ctx.tickets, asTicketSees(), ctx.itsmMatch);
    if (t.ticket) return { authorized: true, reference: 'itsm_ticket', reason: t.reason };
  }

  if (w.services.length) {
    for (const c of ctx.vouching) {
      if (at < c.from || at > c.until || !covers(c, w.services)) continue;
      return { authorized: true, reference: 'change_window', reason: `${c.displayId} covers ${w.services.filter((s) => c.scope.has(s)).join(', ')} in its blast radius and ${hhmm(at)} UTC in its window` };
    }
  }

  const glob = ctx.principals.match(w.principal);
  if (glob) return { authorized: true, reference: 'authorized_principal', reason: `${w.principal.name} is an authorized principal (${glob})` };

  if (ctx.unverified?.length) {
    const t = firstMatchingTicket(ctx.unverified, asTicketSees(), ctx.itsmMatch);
    if (t.ticket) refNote.push(`ticket ${t.ticket.key} would match, but it arrived without the ITSM webhook token, so it is no reference`);
  }
  return { authorized: false, reference: null, reason: refNote.length ? `${NO_REFERENCE}; ${refNote.join('; ')}` : NO_REFERENCE };
}
