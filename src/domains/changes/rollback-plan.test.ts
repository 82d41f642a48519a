import { describe, expect, it } from 'vitest';
import { MAX_ROLLBACK_PLAN_CHARS, rollbackPath, type FlagWrite, type RollbackFacts } from './rollback-plan.js';

/** A deploy from the pipeline "web" to prod with its previous version and a callback, nothing given, no flag written. */
const rollbackFacts = (over: Partial<RollbackFacts> = {}): RollbackFacts => ({
  changeKind: 'deploy',
  given: null,
  givenBy: null,
  previousVersion: '1.4.2',
  previousCommit: '9f8e7d6',
  pipeline: { pipeline: 'web', repo: 'acme/web', environment: 'prod' },
  hasCallback: true,
  flagWrites: [],
  ...over,
});

const checkoutOn: FlagWrite = { flag: 'new-checkout', env: 'prod', from: false, to: true };
const rateLimit: FlagWrite = { flag: 'rate-limit', env: 'prod', from: { rps: 100, burst: [1, 2] }, to: { rps: 500 } };

describe('the limit of a given plan', () => {
  it('is the spec’s number', () => {
    expect(MAX_ROLLBACK_PLAN_CHARS).toBe(4000);
  });
});

describe('the rollback path of a change', () => {
  it.each([
    // what was given wins
    ['a pipeline’s plan is kept as given', rollbackFacts({ given: { kind: 'redeploy_previous', plan: 'helm rollback web 41' }, givenBy: 'pipeline' }),
      'redeploy_previous', 'pipeline', ['helm rollback web 41']],
    ['a person’s manual plan is kept as given', rollbackFacts({ given: { kind: 'manual', plan: 'restore the DNS record\nflush caches' }, givenBy: 'person' }),
      'manual', 'person', ['restore the DNS record\nflush caches']],
    ['a given kind with no plan gets a generated one', rollbackFacts({ given: { kind: 'redeploy_previous' }, givenBy: 'pipeline' }),
      'redeploy_previous', 'pipeline', ['1. Ask the pipeline web to redeploy 1.4.2 to prod', '2. Wait for it to report the rollback complete']],
    ['a given kind with a blank plan gets a generated one', rollbackFacts({ given: { kind: 'revert_flag', plan: '  ' }, givenBy: 'person', flagWrites: [checkoutOn] }),
      'revert_flag', 'person', ['1. Set new-checkout in prod back to false (it was changed to true)']],
    ['a given manual path with no plan says what is missing', rollbackFacts({ given: { kind: 'manual' }, givenBy: 'person', hasCallback: false }),
      'manual', 'person', ['1. Undo the change by hand', 'no callback']],
    ['a given rollback wins over linked flag writes', rollbackFacts({ given: { kind: 'manual', plan: 'call the DBA' }, givenBy: 'person', flagWrites: [checkoutOn] }),
      'manual', 'person', ['call the DBA']],
    ['a given rollback with no giver recorded is a person’s', rollbackFacts({ given: { kind: 'manual', plan: 'x' } }),
      'manual', 'person', ['x']],
    // flag writes
    ['one flag write is set back', rollbackFacts({ flagWrites: [checkoutOn] }),
      'revert_flag', 'changeledger', ['1. Set new-checkout in prod back to false (it was changed to true)']],
    ['flag writes are set back newest first, in compact JSON', rollbackFacts({ changeKind: 'config', flagWrites: [checkoutOn, rateLimit] }),
      'revert_flag', 'changeledger', [
        '1. Set rate-limit in prod back to {"rps":100,"burst":[1,2]} (it was changed to {"rps":500})\n2. Set new-checkout in prod back to false (it was changed to true)']],
    ['a flag that did not exist before is set back to unset', rollbackFacts({ flagWrites: [{ flag: 'beta', env: 'eu', from: undefined, to: 'on' }] }),
      'revert_flag', 'changeledger', ['Set beta in eu back to unset (it was changed to "on")']],
    ['a flag written twice walks back through both values', rollbackFacts({ flagWrites: [{ flag: 'f', env: 'prod', from: 1, to: 2 }, { flag: 'f', env: 'prod', from: 2, to: 3 }] }),
      'revert_flag', 'changeledger', ['1. Set f in prod back to 2 (it was changed to 3)\n2. Set f in prod back to 1 (it was changed to 2)']],
    // redeploy the previous version
    ['a deploy with its previous version and a callback', rollbackFacts(),
      'redeploy_previous', 'changeledger', ['1. Ask the pipeline web to redeploy 1.4.2 to prod\n2. Wait for it to report the rollback complete']],
    ['a deploy with only its previous commit', rollbackFacts({ previousVersion: null }),
      'redeploy_previous', 'changeledger', ['redeploy commit 9f8e7d6 to prod']],
    ['a pipeline named only by its repository', rollbackFacts({ pipeline: { repo: 'acme/web' } }),
      'redeploy_previous', 'changeledger', ['1. Ask the pipeline acme/web to redeploy 1.4.2 to its environment']],
    ['no pipeline facts at all', rollbackFacts({ pipeline: null }),
      'redeploy_previous', 'changeledger', ['1. Ask the pipeline to redeploy 1.4.2 to its environment']],
    // manual, saying what is missing
    ['a deploy with no before-state', rollbackFacts({ previousVersion: null, previousCommit: null }),
      'manual', 'changeledger', ['1. Undo the change by hand (no automatic path: no before-state', '2. Record on the change']],
    ['a deploy with no callback', rollbackFacts({ hasCallback: false }),
      'manual', 'changeledger', ['no callback: the change has no callbackUrl']],
    ['a deploy with neither names both', rollbackFacts({ previousVersion: null, previousCommit: null, hasCallback: false }),
      'manual', 'changeledger', ['no before-state', '; no callback']],
    ['a config change with no flag write', rollbackFacts({ changeKind: 'config' }),
      'manual', 'changeledger', ['it is a config change, not a deploy, and no flag write is linked to it']],
    ['an infra change', rollbackFacts({ changeKind: 'infra' }),
      'manual', 'changeledger', ['it is an infra change, not a deploy']],
  ] as const)('%s', (_, f, kind, generatedBy, words) => {
    const path = rollbackPath(f);
    expect(path.kind).toBe(kind);
    expect(path.generatedBy).toBe(generatedBy);
    for (const w of words) expect(path.plan).toContain(w);
  });

  it('renders the steps as the numbered plan when it generates them', () => {
    const path = rollbackPath(rollbackFacts({ flagWrites: [checkoutOn, rateLimit] }));
    expect(path.steps).toHaveLength(2);
    expect(path.plan).toBe(path.steps.map((s, i) => `${i + 1}. ${s}`).join('\n'));
  });

  it('still generates flag steps for a given revert_flag with its own plan', () => {
    const path = rollbackPath(rollbackFacts({ given: { kind: 'revert_flag', plan: 'flip it back' }, givenBy: 'pipeline', flagWrites: [checkoutOn] }));
    expect(path).toEqual({ kind: 'revert_flag', plan: 'flip it back', generatedBy: 'pipeline', steps: ['Set new-checkout in prod back to false (it was changed to true)'] });
  });

  it('takes the steps of a given manual plan from its lines', () => {
    const path = rollbackPath(rollbackFacts({ given: { kind: 'manual', plan: 'restore the DNS record\n\n  flush caches ' }, givenBy: 'person' }));
    expect(path.steps).toEqual(['restore the DNS record', 'flush caches']);
  });

  it('leaves the flag writes it was given in their order', () => {
    const writes = [checkoutOn, rateLimit];
    rollbackPath(rollbackFacts({ flagWrites: writes }));
    expect(writes).toEqual([checkoutOn, rateLimit]);
  });
});
