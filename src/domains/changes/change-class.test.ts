import { describe, expect, it } from 'vitest';
import {
  CLASS_DROP_CAUSES,
  deriveClass,
  droppedClass,
  type ClassDropCause,
  type ClassFacts,
  type TemplateScope,
} from './change-class.js';

/** A certified template that pre-approves dependency bumps of checkout and cart in production. */
const aTemplate = (over: Partial<TemplateScope> = {}): TemplateScope => ({
  id: 'tpl_deps',
  name: 'Weekly dependency bump',
  version: 3,
  kind: 'deploy',
  services: ['checkout', 'svc:cart'],
  environments: ['prod', 'staging'],
  pipelines: ['deploy-*'],
  repos: ['acme/*'],
  maxBlastServices: 10,
  hops: 1,
  ...over,
});

/** A change that the template above contains, naming no template and declaring no emergency. */
const facts = (over: Partial<ClassFacts> = {}): ClassFacts => ({
  kind: 'deploy',
  components: ['svc:checkout'],
  environment: 'prod',
  pipeline: 'deploy-checkout',
  repo: 'acme/checkout',
  blastServices: 4,
  hops: 1,
  emergency: null,
  template: null,
  ...over,
});

const emergency = { reason: 'card payments failing', link: 'INC-4711' };
const deps = aTemplate();
const depsRef = { id: 'tpl_deps', name: 'Weekly dependency bump', version: 3 };
const notCovering = (why: string) => `normal: the template “Weekly dependency bump” v3 does not cover it — ${why}`;

describe('the change class', () => {
  it.each([
    // rule 1: emergency
    ['an emergency is emergency, even when it names a template that covers it',
      facts({ emergency, template: 'Weekly dependency bump' }), [deps],
      'emergency', 'emergency', 'declared an emergency: card payments failing (linked to INC-4711)', null],
    ['an emergency is emergency under standard_by_default too',
      facts({ emergency }), [deps],
      'emergency', 'emergency', 'declared an emergency: card payments failing (linked to INC-4711)', null],

    // rule 2: the named template
    ['a template named by its name, case-blind and untrimmed, makes it standard',
      facts({ template: '  WEEKLY Dependency BUMP ' }), [deps],
      'standard', 'template', 'standard: pre-approved by the template “Weekly dependency bump” v3', depsRef],
    ['a template named by its id makes it standard',
      facts({ template: 'tpl_deps' }), [deps],
      'standard', 'template', 'standard: pre-approved by the template “Weekly dependency bump” v3', depsRef],
    ['a bare service name in the template matches the svc: key of a component',
      facts({ template: 'tpl_deps', components: ['svc:checkout', 'svc:cart'] }), [deps],
      'standard', 'template', 'standard: pre-approved by the template “Weekly dependency bump” v3', depsRef],
    ['a template with no environment, pipeline or repository list accepts a change that names none',
      facts({ template: 'tpl_deps', environment: null, pipeline: null, repo: null }), [aTemplate({ environments: [], pipelines: [], repos: [] })],
      'standard', 'template', 'standard: pre-approved by the template “Weekly dependency bump” v3', depsRef],
    ['hops and blast radius exactly at the template’s limits are inside it',
      facts({ template: 'tpl_deps', hops: 1, blastServices: 10 }), [deps],
      'standard', 'template', 'standard: pre-approved by the template “Weekly dependency bump” v3', depsRef],
    ['a named template that is not certified leaves it normal',
      facts({ template: 'Database failover' }), [deps],
      'normal', 'default', 'normal: no certified template is named “Database failover”', null],
    ['a named template when none is certified leaves it normal',
      facts({ template: 'Weekly dependency bump' }), [],
      'normal', 'default', 'normal: no certified template is named “Weekly dependency bump”', null],
    ['another kind of change is outside the template',
      facts({ template: 'tpl_deps', kind: 'config' }), [deps],
      'normal', 'default', notCovering('it is a config change and the template covers deploy changes'), null],
    ['a change with no component is outside the template',
      facts({ template: 'tpl_deps', components: [] }), [deps],
      'normal', 'default', notCovering('it names no component'), null],
    ['the first component outside the template’s services is named',
      facts({ template: 'tpl_deps', components: ['svc:checkout', 'svc:payments', 'svc:ledger'] }), [deps],
      'normal', 'default', notCovering('svc:payments is outside the template’s services'), null],
    ['a change that names no environment is outside a template that lists environments',
      facts({ template: 'tpl_deps', environment: null }), [deps],
      'normal', 'default', notCovering('it names no environment and the template covers prod, staging'), null],
    ['an environment the template does not list is outside it',
      facts({ template: 'tpl_deps', environment: 'dev' }), [deps],
      'normal', 'default', notCovering('environment dev is outside the template’s (prod, staging)'), null],
    ['a change that names no pipeline is outside a template that lists pipelines',
      facts({ template: 'tpl_deps', pipeline: null }), [deps],
      'normal', 'default', notCovering('it names no pipeline and the template allows named pipelines only'), null],
    ['a pipeline the template does not allow is outside it',
      facts({ template: 'tpl_deps', pipeline: 'hotfix-checkout' }), [deps],
      'normal', 'default', notCovering('pipeline hotfix-checkout is not one the template allows'), null],
    ['a change that names no repository is outside a template that lists repositories',
      facts({ template: 'tpl_deps', repo: null }), [deps],
      'normal', 'default', notCovering('it names no repository and the template allows named repositories only'), null],
    ['a repository the template does not allow is outside it',
      facts({ template: 'tpl_deps', repo: 'globex/checkout' }), [deps],
      'normal', 'default', notCovering('repository globex/checkout is not one the template allows'), null],
    ['more hops than the template allows is outside it',
      facts({ template: 'tpl_deps', hops: 2 }), [deps],
      'normal', 'default', notCovering('it reaches 2 hops and the template allows 1'), null],
    ['a wider blast radius than the template allows is outside it',
      facts({ template: 'tpl_deps', blastServices: 11 }), [deps],
      'normal', 'default', notCovering('its blast radius has 11 services and the template allows 10'), null],
    ['of several things outside the template, the first in order is named (kind before component)',
      facts({ template: 'tpl_deps', kind: 'config', components: ['svc:payments'], environment: 'dev', hops: 9 }), [deps],
      'normal', 'default', notCovering('it is a config change and the template covers deploy changes'), null],
    ['of several things outside the template, the first in order is named (environment before hops)',
      facts({ template: 'tpl_deps', environment: 'dev', hops: 9, blastServices: 99 }), [deps],
      'normal', 'default', notCovering('environment dev is outside the template’s (prod, staging)'), null],
  ] as const)('%s', (_, f, certified, changeClass, source, reason, template) => {
    const d = deriveClass(f, certified, 'standard_by_default');
    expect(d).toEqual({ changeClass, source, reason, template });
  });

  it.each([
    ['a named template decides under normal_by_default as well',
      facts({ template: 'weekly dependency bump' }), [deps],
      'standard', 'template', 'standard: pre-approved by the template “Weekly dependency bump” v3', depsRef],
    ['a change that names no template is normal even when a certified template covers it',
      facts(), [deps],
      'normal', 'default', 'normal by default: it names no template', null],
    ['a change that names no template is normal when the organisation has no certified template',
      facts(), [],
      'normal', 'default', 'normal by default: it names no template', null],
  ] as const)('normal_by_default: %s', (_, f, certified, changeClass, source, reason, template) => {
    expect(deriveClass(f, certified, 'normal_by_default')).toEqual({ changeClass, source, reason, template });
  });

  const nightly = aTemplate({ id: 'tpl_nightly', name: 'Nightly rollout', version: 1 });
  const cache = aTemplate({ id: 'tpl_cache', name: 'Cache flush', version: 7, kind: 'config' });
  const alpha = aTemplate({ id: 'tpl_alpha', name: 'Alpha canary', version: 2, services: ['svc:search'] });

  it.each([
    ['the first certified template by name that covers it makes it standard',
      facts(), [deps, nightly, cache, alpha],
      'standard', 'template', 'standard by default: the template “Nightly rollout” v1 covers it', { id: 'tpl_nightly', name: 'Nightly rollout', version: 1 }],
    ['templates earlier by name that do not cover it are passed over',
      facts(), [alpha, cache, deps],
      'standard', 'template', 'standard by default: the template “Weekly dependency bump” v3 covers it', depsRef],
    ['no certified template covers it: normal',
      facts({ components: ['svc:payments'] }), [nightly, deps, cache, alpha],
      'normal', 'default', 'normal: no certified template covers it', null],
    ['the organisation has no certified template: normal',
      facts(), [],
      'normal', 'default', 'normal: the organisation has no certified template', null],
  ] as const)('standard_by_default, naming no template: %s', (_, f, certified, changeClass, source, reason, template) => {
    expect(deriveClass(f, certified, 'standard_by_default')).toEqual({ changeClass, source, reason, template });
  });

  it('looks at the certified templates in name order, whatever order they are given in', () => {
    const reason = 'standard by default: the template “Nightly rollout” v1 covers it';
    expect(deriveClass(facts(), [deps, nightly], 'standard_by_default').reason).toBe(reason);
    expect(deriveClass(facts(), [nightly, deps], 'standard_by_default').reason).toBe(reason);
  });
});

describe('the class a change drops to when its template stops backing it', () => {
  const causes = Object.keys(CLASS_DROP_CAUSES) as ClassDropCause[];

  it('has one wording per cause', () => {
    expect(CLASS_DROP_CAUSES).toEqual({
      template_withdrawn: 'the template’s certification was withdrawn by a person',
      template_edited: 'the template was changed since the change was registered',
      template_uncovered: 'the template no longer covers the change after its edit',
      template_demoted: 'the template was demoted after a rollback of a change it made standard',
    });
  });

  it.each(causes.flatMap((cause) => [
    [cause, 'a standard change drops to normal', facts({ template: 'tpl_deps' }), 'normal'],
    [cause, 'an emergency stays emergency', facts({ template: 'tpl_deps', emergency }), 'emergency'],
  ] as const))('%s: %s', (cause, _, f, changeClass) => {
    const d = droppedClass(f, cause, 'Weekly dependency bump');
    expect(d).toEqual({
      changeClass,
      source: changeClass === 'emergency' ? 'emergency' : 'default',
      reason: `${changeClass}: the template “Weekly dependency bump” no longer backs it — ${CLASS_DROP_CAUSES[cause]}`,
      template: null,
      cause,
    });
  });

  it('spells out the withdrawn cause as a release manager reads it', () => {
    expect(droppedClass(facts({ template: 'tpl_deps' }), 'template_withdrawn', 'Weekly dependency bump').reason)
      .toBe('normal: the template “Weekly dependency bump” no longer backs it — the template’s certification was withdrawn by a person');
  });
});
