import { describe, expect, it } from 'vitest';
import { DEFAULT_LABEL_MAPPING } from './label-mapping.js';
import { escapeRe2, silenceComment, silencesFor, type ScopeNames } from './silence-matchers.js';

const scope = (s: Partial<ScopeNames>): ScopeNames => ({ services: [], assets: [], sources: [], ...s });
const byLabel = (specs: ReturnType<typeof silencesFor>) => Object.fromEntries(specs.map((s) => [s.label, s.matchers]));
const re = (name: string, value: string) => ({ name, value, isRegex: true, isEqual: true });

describe('silence matchers: one silence per label name, since Alertmanager ANDs a silence’s matchers', () => {
  it('services by name under every service label of the mapping, job included (the mapping’s weakest rule)', () => {
    const specs = silencesFor(scope({ services: [{ key: 'svc:payments', name: 'payments' }, { key: 'svc:checkout', name: 'checkout' }] }), DEFAULT_LABEL_MAPPING);
    expect(byLabel(specs)).toEqual({
      app: [re('app', 'checkout|payments')],
      app_kubernetes_io_name: [re('app_kubernetes_io_name', 'checkout|payments')],
      job: [re('job', 'checkout|payments')],
      service: [re('service', 'checkout|payments')],
    });
  });

  it('a service whose name differs from its key is matched by both, as intake maps both', () => {
    const specs = silencesFor(scope({ services: [{ key: 'svc:checkout-api', name: 'Checkout API' }] }), [{ labels: ['service'], as: 'service' }]);
    expect(specs).toEqual([{ label: 'service', matchers: [re('service', 'Checkout API|checkout-api')] }]);
  });

  it('hosts under instance with an optional port, and bare under host/node/nodename; only the kinds the rule names', () => {
    const specs = silencesFor(scope({ assets: [
      { key: 'host:db-2', kind: 'host', name: 'db-2' }, { key: 'host:db-1', kind: 'host', name: 'db-1' }, { key: 'datastore:pg', kind: 'datastore', name: 'pg' },
    ] }), [{ labels: ['instance', 'host'], as: 'asset', kinds: ['host', 'node', 'vm'] }]);
    expect(byLabel(specs)).toEqual({ instance: [re('instance', '(db-1|db-2)(:[0-9]+)?')], host: [re('host', 'db-1|db-2')] });
  });

  it('pods per namespace (two matchers: the namespace, the pods); a workload’s pods by the names intake gives them', () => {
    const specs = silencesFor(scope({ assets: [
      { key: 'pod:shop/web-1', kind: 'pod', name: 'web-1' }, { key: 'pod:shop/web-2', kind: 'pod', name: 'web-2' },
      { key: 'pod:ops/agent-x', kind: 'pod', name: 'agent-x' }, { key: 'workload:shop/Deployment/api', kind: 'workload', name: 'api' },
      { key: 'workload:shop/StatefulSet/db', kind: 'workload', name: 'db' },
    ] }), [{ labels: ['namespace', 'pod'], as: 'pod' }]);
    expect(specs).toEqual([
      { label: 'pod:ops', matchers: [{ name: 'namespace', value: 'ops', isRegex: false, isEqual: true }, re('pod', 'agent-x')] },
      { label: 'pod:shop', matchers: [{ name: 'namespace', value: 'shop', isRegex: false, isEqual: true }, re('pod', 'api-[^-]+-[^-]+|db-[^-]+|web-1|web-2')] },
    ]);
  });

  it('monitoring sources by id and by name under job and rule_group', () => {
    const specs = silencesFor(scope({ sources: [{ id: 'checkout-probes', name: 'Checkout probes' }] }), [{ labels: ['job', 'rule_group'], as: 'source' }]);
    expect(byLabel(specs)).toEqual({ job: [re('job', 'Checkout probes|checkout-probes')], rule_group: [re('rule_group', 'Checkout probes|checkout-probes')] });
  });

  it('escapes RE2 metacharacters, so a name matches only itself', () => {
    expect(escapeRe2('a.b+c*(d)|[e]{f}^$\\?')).toBe('a\\.b\\+c\\*\\(d\\)\\|\\[e\\]\\{f\\}\\^\\$\\\\\\?');
    const specs = silencesFor(scope({ services: [{ key: 'svc:shop.eu', name: 'shop.eu' }] }), [{ labels: ['service'], as: 'service' }]);
    expect(specs[0]!.matchers[0]!.value).toBe('shop\\.eu');
  });

  it('an empty scope gives no silence (a silence needs at least one matcher), and the same scope always the same matchers', () => {
    expect(silencesFor(scope({}), DEFAULT_LABEL_MAPPING)).toEqual([]);
    const s = scope({ services: [{ key: 'svc:b', name: 'b' }, { key: 'svc:a', name: 'a' }], assets: [{ key: 'host:h', kind: 'host', name: 'h' }] });
    const reversed = scope({ services: [...s.services].reverse(), assets: s.assets });
    expect(silencesFor(s, DEFAULT_LABEL_MAPPING)).toEqual(silencesFor(reversed, DEFAULT_LABEL_MAPPING));
  });

  it('the comment gives the CHG id, the title and the change link', () => {
    expect(silenceComment('CHG-1A2B3C4D', 'Upgrade checkout', 'https://cl.example/?view=changes&change=chg_1')).toBe('CHG-1A2B3C4D Upgrade checkout https://cl.example/?view=changes&change=chg_1');
  });
});
