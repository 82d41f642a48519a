/**
 * Standard-change templates: the pre-approved operation. An owner or admin drafts a template; a
 * different person — an owner or a designated approver — certifies it, so whoever may edit
 * templates cannot make a change standard alone. An edit is a new version and un-certifies it.
 * Withdrawing or editing a template drops the changes it made standard that have not started.
 */
import { globProblem } from '../../platform/globs.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, Tx } from '../../platform/db/database.js';
import { badRequest, conflict, forbidden, invalid, notFound, taken } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Principal } from '../auth/index.js';
import { CHANGE_KINDS, readApprovers, type ClassService } from '../changes/index.js';
import { appendAtCommit, type AuditContext } from '../ledger/index.js';
import * as store from './governance-store.js';
import type { Template, TemplateFields } from './governance-store.js';

export const MAX_TEMPLATE_PATTERNS = 100;
export const MAX_TEMPLATE_BLAST = 1_000;
export type TemplateInput = Partial<TemplateFields>;

function manage(p: Principal, what: string): void {
  if (p.role !== 'owner' && p.role !== 'admin') throw forbidden(`only owners and admins ${what} standard-change templates`);
}

function patterns(field: string, list: string[] | undefined, required: boolean): string[] {
  const out = [...new Set((list ?? []).map((s) => s.trim()).filter(Boolean))];
  if (required && out.length === 0) throw badRequest(`${field} must name at least one catalogue key or glob (svc:checkout, svc:pay*)`, field);
  if (out.length > MAX_TEMPLATE_PATTERNS) throw badRequest(`${field} holds at most ${MAX_TEMPLATE_PATTERNS} entries`, field);
  for (const [i, p] of out.entries()) {
    if (p.length > 200) throw invalid(`${field}.${i}`, 'must be at most 200 characters');
    const problem = globProblem(p);
    if (problem) throw invalid(`${field}.${i}`, `“${p}” ${problem}`);
  }
  return out;
}

/** Every field of a template checked, each refusal naming it. */
export function checkTemplate(f: TemplateInput): TemplateFields {
  const name = f.name?.trim() ?? '';
  if (!name) throw invalid('name', 'is required');
  if (name.length > 120) throw invalid('name', 'must be at most 120 characters');
  if (!f.kind || !(CHANGE_KINDS as readonly string[]).includes(f.kind)) throw badRequest(`kind must be one of ${CHANGE_KINDS.join(', ')}`, 'kind');
  const max = f.maxBlastServices;
  if (max === undefined || !Number.isInteger(max) || max < 1 || max > MAX_TEMPLATE_BLAST) throw invalid('maxBlastServices', `must be a whole number from 1 to ${MAX_TEMPLATE_BLAST}`);
  if (f.hops !== 1 && f.hops !== 2) throw invalid('hops', 'must be 1 or 2');
  return {
    name, kind: f.kind, services: patterns('services', f.services, true), environments: patterns('environments', f.environments, false),
    pipelines: patterns('pipelines', f.pipelines, false), repos: patterns('repos', f.repos, false), maxBlastServices: max, hops: f.hops,
    description: (f.description ?? '').trim().slice(0, 4000),
  };
}

export class TemplateService {
  constructor(private readonly deps: { db: Database; clock: Clock; classes: ClassService }) {}

  list(p: Principal): Promise<Template[]> {
    return store.listTemplates(this.deps.db, p.org.id);
  }

  async get(p: Principal, id: string): Promise<Template> {
    const t = await store.findTemplate(this.deps.db, p.org.id, id);
    if (!t) throw notFound(`no template ${id}`);
    return t;
  }

  async create(ctx: AuditContext, p: Principal, input: TemplateInput): Promise<Template> {
    manage(p, 'draft');
    const f = checkTemplate(input);
    const id = newId('tpl');
    return this.deps.db.transaction(async (tx) => {
      const at = this.deps.clock.now().toISOString();
      const clash = await tx.query('SELECT 1 FROM change_templates WHERE org_id = $1 AND lower(name) = lower($2)', [p.org.id, f.name]);
      if (clash.rows.length) throw taken(`a template named “${f.name}” exists already`, 'name');
      await store.insertTemplate(tx, p.org.id, id, f, p.user.id, at);
      await store.bumpVersion(tx, p.org.id, 'templates');
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'template.created', target: { type: 'template', id }, data: { ...f, version: 1 } });
      return (await store.findTemplate(tx, p.org.id, id))!;
    });
  }

  /** A new version: drafted by the editor and no longer certified; changes it made standard that have not started drop. */
  async edit(ctx: AuditContext, p: Principal, id: string, input: TemplateInput): Promise<{ template: Template; dropped: number }> {
    manage(p, 'edit');
    return this.deps.db.transaction(async (tx) => {
      const before = await store.findTemplate(tx, p.org.id, id, true);
      if (!before) throw notFound(`no template ${id}`);
      const f = checkTemplate({ ...before, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) });
      if (f.name.toLowerCase() !== before.name.toLowerCase()) {
        const clash = await tx.query('SELECT 1 FROM change_templates WHERE org_id = $1 AND lower(name) = lower($2) AND id <> $3', [p.org.id, f.name, id]);
        if (clash.rows.length) throw taken(`a template named “${f.name}” exists already`, 'name');
      }
      const at = this.deps.clock.now().toISOString();
      await store.updateTemplate(tx, id, f, p.user.id, at);
      await store.bumpVersion(tx, p.org.id, 'templates');
      const changed = Object.keys(f).filter((k) => JSON.stringify(f[k as keyof TemplateFields]) !== JSON.stringify(before[k as keyof TemplateFields]));
      await appendAtCommit(tx, this.deps.clock, ctx, {
        orgId: p.org.id, action: 'template.edited', target: { type: 'template', id },
        data: { version: { from: before.version, to: before.version + 1 }, changed, wasCertified: before.state === 'certified', ...Object.fromEntries(changed.map((k) => [k, f[k as keyof TemplateFields]])) },
      });
      const dropped = before.state === 'certified' ? await this.deps.classes.dropTemplate(tx, ctx, p.org.id, { id, name: before.name }, 'template_edited') : 0;
      return { template: (await store.findTemplate(tx, p.org.id, id))!, dropped };
    });
  }

  /** An owner or a designated approver, signed in, who did not draft this version. */
  async certify(ctx: AuditContext, p: Principal, id: string): Promise<Template> {
    if (p.kind !== 'session') throw forbidden('certifying a template is for people, signed in — never an API token');
    return this.deps.db.transaction(async (tx) => {
      const t = await store.findTemplate(tx, p.org.id, id, true);
      if (!t) throw notFound(`no template ${id}`);
      const approver = (await readApprovers(tx, p.org.id)).some((a) => a.userId === p.user.id);
      if (p.role !== 'owner' && !approver) throw forbidden('only an owner or a designated approver certifies a template');
      if (t.author.id === p.user.id) throw forbidden('you drafted this version of the template: a different owner or approver must certify it');
      if (t.state === 'certified') throw conflict(`the template is certified already (version ${t.version})`, { state: t.state });
      const at = this.deps.clock.now().toISOString();
      await store.setTemplateState(tx, id, 'certified', p.user.id, null, at);
      await store.bumpVersion(tx, p.org.id, 'templates');
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'template.certified', target: { type: 'template', id }, data: { name: t.name, version: t.version, author: t.author.email } });
      return (await store.findTemplate(tx, p.org.id, id))!;
    });
  }

  /** Owners, admins and approvers withdraw a certification, saying why; the changes it made standard that have not started drop. */
  /**
   * The first rollback of a change this template made standard takes its certification away
   * (demoteOnRollback): back to a draft that a person must certify again. Audited template.demoted;
   * the changes it made standard that have not started drop to their class without it.
   */
  async demote(tx: Tx, ctx: AuditContext, orgId: string, id: string, change: { id: string; displayId: string }): Promise<boolean> {
    const t = await store.findTemplate(tx, orgId, id, true);
    if (!t || t.state !== 'certified') return false;
    const at = this.deps.clock.now().toISOString();
    const why = `demoted after the rollback of ${change.displayId}`;
    await store.setTemplateState(tx, id, 'draft', null, why, at);
    await tx.query('UPDATE change_templates SET demoted_at = $2, demoted_by_change = $3 WHERE id = $1', [id, at, change.id]);
    await store.bumpVersion(tx, orgId, 'templates');
    await appendAtCommit(tx, this.deps.clock, ctx, { orgId, action: 'template.demoted', target: { type: 'template', id }, data: { name: t.name, version: t.version, change: change.id, displayId: change.displayId, reason: why } });
    await this.deps.classes.dropTemplate(tx, ctx, orgId, { id, name: t.name }, 'template_demoted');
    return true;
  }

  async withdraw(ctx: AuditContext, p: Principal, id: string, reason: string): Promise<{ template: Template; dropped: number }> {
    const why = reason.trim();
    if (why.length < 5) throw invalid('reason', 'say why the template is withdrawn (at least 5 characters)');
    return this.deps.db.transaction(async (tx) => {
      const t = await store.findTemplate(tx, p.org.id, id, true);
      if (!t) throw notFound(`no template ${id}`);
      const approver = (await readApprovers(tx, p.org.id)).some((a) => a.userId === p.user.id);
      if (p.role !== 'owner' && p.role !== 'admin' && !approver) throw forbidden('only owners, admins and designated approvers withdraw a template');
      if (t.state === 'withdrawn') throw conflict('the template is withdrawn already', { state: t.state });
      const at = this.deps.clock.now().toISOString();
      await store.setTemplateState(tx, id, 'withdrawn', null, why, at);
      await store.bumpVersion(tx, p.org.id, 'templates');
      await appendAtCommit(tx, this.deps.clock, ctx, { orgId: p.org.id, action: 'template.withdrawn', target: { type: 'template', id }, data: { name: t.name, version: t.version, reason: why, was: t.state } });
      const dropped = t.state === 'certified' ? await this.deps.classes.dropTemplate(tx, ctx, p.org.id, { id, name: t.name }, 'template_withdrawn') : 0;
      return { template: (await store.findTemplate(tx, p.org.id, id))!, dropped };
    });
  }
}
