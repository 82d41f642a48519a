/**
 * The change class (ITIL's standard, normal, emergency), decided in code from what the change
 * says and the organisation's certified templates. Pure: the first rule that applies decides, and
 * the answer carries the rule (`source`) and a reason in plain words.
 *
 *  1. emergency: true with a reason and a linked incident or ticket → emergency;
 *  2. a certified template whose scope contains the change → standard — the template the change
 *     names, or under `standard_by_default` the first certified template (by name) that contains it;
 *  3. else normal.
 */
import picomatch from 'picomatch';

export const CHANGE_CLASSES = ['standard', 'normal', 'emergency'] as const;
export type ChangeClass = (typeof CHANGE_CLASSES)[number];
export const CLASS_SOURCES = ['emergency', 'template', 'default', 'reclassified'] as const;
export type ClassSource = (typeof CLASS_SOURCES)[number];
export const CLASS_POLICIES = ['normal_by_default', 'standard_by_default'] as const;
export type ClassPolicy = (typeof CLASS_POLICIES)[number];

/** Why a change lost the standard class its template gave it: one vocabulary for the page, the timeline and the audit. */
export const CLASS_DROP_CAUSES = {
  template_withdrawn: 'the template’s certification was withdrawn by a person',
  template_edited: 'the template was changed since the change was registered',
  template_uncovered: 'the template no longer covers the change after its edit',
  template_demoted: 'the template was demoted after a rollback of a change it made standard',
} as const;
export type ClassDropCause = keyof typeof CLASS_DROP_CAUSES;

/** What a template pre-approves. Globs are case-blind; a bare service name also matches its `svc:` key. */
export type TemplateScope = {
  id: string; name: string; version: number; kind: string;
  services: string[]; environments: string[]; pipelines: string[]; repos: string[]; maxBlastServices: number; hops: number;
};

export type ClassFacts = {
  kind: string;
  /** The catalogue keys of the change's components. */
  components: string[];
  environment: string | null; pipeline: string | null; repo: string | null;
  blastServices: number; hops: number;
  emergency: { reason: string; link: string } | null;
  /** The template the change asks for, by name or id; null when it names none. */
  template: string | null;
};

export type ClassDecision = {
  changeClass: ChangeClass; source: ClassSource; reason: string;
  template: { id: string; name: string; version: number } | null;
};

// Environment and pipeline names may hold slashes (production/us): `*` must cross them, so they are matched as basenames.
const matcher = (globs: string[]) => {
  const m = picomatch(globs.length ? globs : ['\0'], { nocase: true, dot: true, bash: true });
  return (s: string) => m(s) || (s.startsWith('svc:') && m(s.slice(4)));
};

/** Whether the template's scope contains the change; when it does not, the first thing outside it. */
export function templateContains(t: TemplateScope, f: ClassFacts): { ok: true } | { ok: false; reason: string } {
  if (t.kind !== f.kind) return { ok: false, reason: `it is a ${f.kind} change and the template covers ${t.kind} changes` };
  if (f.components.length === 0) return { ok: false, reason: 'it names no component' };
  const service = matcher(t.services);
  const outside = f.components.find((k) => !service(k));
  if (outside) return { ok: false, reason: `${outside} is outside the template’s services` };
  if (t.environments.length) {
    if (!f.environment) return { ok: false, reason: `it names no environment and the template covers ${t.environments.join(', ')}` };
    if (!matcher(t.environments)(f.environment)) return { ok: false, reason: `environment ${f.environment} is outside the template’s (${t.environments.join(', ')})` };
  }
  if (t.pipelines.length) {
    if (!f.pipeline) return { ok: false, reason: 'it names no pipeline and the template allows named pipelines only' };
    if (!matcher(t.pipelines)(f.pipeline)) return { ok: false, reason: `pipeline ${f.pipeline} is not one the template allows` };
  }
  if (t.repos.length) {
    if (!f.repo) return { ok: false, reason: 'it names no repository and the template allows named repositories only' };
    if (!matcher(t.repos)(f.repo)) return { ok: false, reason: `repository ${f.repo} is not one the template allows` };
  }
  if (f.hops > t.hops) return { ok: false, reason: `it reaches ${f.hops} hops and the template allows ${t.hops}` };
  if (f.blastServices > t.maxBlastServices) return { ok: false, reason: `its blast radius has ${f.blastServices} services and the template allows ${t.maxBlastServices}` };
  return { ok: true };
}

const label = (t: TemplateScope) => `“${t.name}” v${t.version}`;

/** The class of a change. `certified` holds the organisation's certified templates only. */
export function deriveClass(f: ClassFacts, certified: readonly TemplateScope[], policy: ClassPolicy): ClassDecision {
  if (f.emergency) {
    return { changeClass: 'emergency', source: 'emergency', reason: `declared an emergency: ${f.emergency.reason} (linked to ${f.emergency.link})`, template: null };
  }
  if (f.template !== null) {
    const wanted = f.template.trim().toLowerCase();
    const t = certified.find((x) => x.id === f.template || x.name.toLowerCase() === wanted);
    if (!t) return { changeClass: 'normal', source: 'default', reason: `normal: no certified template is named “${f.template}”`, template: null };
    const inside = templateContains(t, f);
    if (!inside.ok) return { changeClass: 'normal', source: 'default', reason: `normal: the template ${label(t)} does not cover it — ${inside.reason}`, template: null };
    return { changeClass: 'standard', source: 'template', reason: `standard: pre-approved by the template ${label(t)}`, template: { id: t.id, name: t.name, version: t.version } };
  }
  if (policy === 'standard_by_default') {
    const sorted = [...certified].sort((a, b) => a.name.localeCompare(b.name));
    const t = sorted.find((x) => templateContains(x, f).ok);
    if (t) return { changeClass: 'standard', source: 'template', reason: `standard by default: the template ${label(t)} covers it`, template: { id: t.id, name: t.name, version: t.version } };
    return { changeClass: 'normal', source: 'default', reason: certified.length ? 'normal: no certified template covers it' : 'normal: the organisation has no certified template', template: null };
  }
  return { changeClass: 'normal', source: 'default', reason: 'normal by default: it names no template', template: null };
}

/**
 * The class a change falls back to when its template stops backing it (withdrawn, or edited so
 * that it no longer holds), with the cause in the one vocabulary.
 */
export function droppedClass(f: ClassFacts, cause: ClassDropCause, templateName: string): ClassDecision & { cause: ClassDropCause } {
  const base = deriveClass({ ...f, template: null }, [], 'normal_by_default');
  return { ...base, reason: `${base.changeClass}: the template “${templateName}” no longer backs it — ${CLASS_DROP_CAUSES[cause]}`, cause };
}
