import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors.js';
import { HARVEST_KINDS, type AdapterContext, type IntakeRequest } from '../observed-types.js';
import { PAGERDUTY_ACCEPTED, PAGERDUTY_SUMMARY_MAX, pagerdutyIntake, pagerdutyRoutingKey, parsePagerduty } from './pagerduty.js';

const ctx: AdapterContext = { sourceId: 'src_pd', config: {}, ciNamespaces: [], now: new Date('2026-12-01T12:00:00Z') };
const KEY = 'R0UTINGKEY0123456789abcdefABCDEF';
/** PagerDuty's own example request (github:PagerDuty/developer-docs docs/events-API-v2/03-Change-Events.md). */
const documented = {
  routing_key: KEY,
  payload: {
    summary: 'Build Success: Increase snapshot create timeout to 30 seconds',
    timestamp: '2020-07-17T08:42:58.315+0000',
    source: 'acme-build-pipeline-tool-default-i-9999',
    custom_details: { build_state: 'passed', build_number: '2', run_time: '1236s' },
  },
  links: [{ href: 'https://acme.pagerduty.dev/build/2', text: 'View more details in Acme!' }],
};
const req = (body: unknown): IntakeRequest => ({ headers: {}, rawBody: Buffer.from(JSON.stringify(body)), body });
function refused(body: unknown): string | undefined {
  try {
    parsePagerduty(body, ctx);
  } catch (e) {
    if (e instanceof AppError && e.status === 400) return e.field;
    throw e;
  }
  throw new Error('parsed without a 400');
}

describe('the PagerDuty change-event intake (POST /v2/change/enqueue)', () => {
  it('authenticates by the routing key in the body: it is the connection\'s secret', async () => {
    expect(pagerdutyRoutingKey(documented)).toBe(KEY);
    expect(await pagerdutyIntake.authenticate(req(documented), KEY)).toBe(true);
    expect(await pagerdutyIntake.authenticate(req({ ...documented, routing_key: 'other' }), KEY)).toBe(false);
    expect(await pagerdutyIntake.authenticate(req({ payload: documented.payload }), KEY)).toBe(false);
    // A bearer header is not how PagerDuty senders prove themselves.
    expect(await pagerdutyIntake.authenticate({ ...req({ payload: documented.payload }), headers: { authorization: `Bearer ${KEY}` } }, KEY)).toBe(false);
  });

  it('answers what PagerDuty answers an accepted change event', () => {
    expect(PAGERDUTY_ACCEPTED).toEqual({ status: 'success', message: 'Change event processed' });
  });

  it('records PagerDuty\'s documented example as one change: summary, time, source as the service, details, link', () => {
    const p = pagerdutyIntake.parse(req(documented), ctx);
    expect(p).toMatchObject({ ignored: 0, rejected: [] });
    const e = p.events[0]!;
    expect(e).toMatchObject({
      kind: 'change', title: documented.payload.summary, occurredAt: '2020-07-17T08:42:58.315Z',
      serviceHint: 'acme-build-pipeline-tool-default-i-9999', link: 'https://acme.pagerduty.dev/build/2',
      principal: { kind: 'unknown', name: 'acme-build-pipeline-tool-default-i-9999' }, changeRef: null, params: documented.payload.custom_details,
    });
    expect(JSON.parse(e.diff!)).toEqual(documented.payload.custom_details);
    expect(e.eventId).toMatch(/^src_pd\/[0-9a-f]{32}$/);
  });

  it('custom_details.service names the service before payload.source; environment, repo and actor are read too', () => {
    const e = parsePagerduty({ ...documented, payload: { ...documented.payload, custom_details: { service: 'checkout', environment: 'prod', repo: 'https://github.com/acme/checkout', actor: 'ana' } } }, ctx).events[0]!;
    expect(e).toMatchObject({ serviceHint: 'checkout', location: { environment: 'prod' }, repo: 'acme/checkout', principal: { name: 'ana', detail: { tool: documented.payload.source } } });
  });

  it('the dedupe key is the event as sent: a retry is the same, another timestamp is another change, the routing key is no part of it', () => {
    const id = (b: unknown, c = ctx) => parsePagerduty(b, c).events[0]!.eventId;
    expect(id(documented)).toBe(id(JSON.parse(JSON.stringify(documented))));
    // Key order does not matter (canonical JSON).
    const { summary, ...rest } = documented.payload;
    expect(id({ links: documented.links, payload: { ...rest, summary }, routing_key: KEY })).toBe(id(documented));
    expect(id({ ...documented, payload: { ...documented.payload, timestamp: '2020-07-17T08:43:58.315+0000' } })).not.toBe(id(documented));
    expect(id({ ...documented, routing_key: 'rotated' })).toBe(id(documented));
    expect(id(documented, { ...ctx, sourceId: 'src_other' })).not.toBe(id(documented));
  });

  it('without a timestamp the change is dated when it arrived', () => {
    const { timestamp: _t, ...payload } = documented.payload;
    expect(parsePagerduty({ ...documented, payload }, ctx).events[0]!.occurredAt).toBe('2026-12-01T12:00:00.000Z');
  });

  it('never a receipt: PagerDuty is not a harvest source, whatever the details carry', () => {
    const e = parsePagerduty({ ...documented, payload: { ...documented.payload, custom_details: { change_id: 'CHG-1A2B3C4D' } } }, ctx).events[0]!;
    expect(e.changeRef).toBeNull();
    expect(HARVEST_KINDS).not.toContain('pagerduty');
  });

  it.each([
    [{ routing_key: KEY }, 'payload'],
    [{ routing_key: KEY, payload: 'hello' }, 'payload'],
    [{ routing_key: KEY, payload: {} }, 'payload.summary'],
    [{ routing_key: KEY, payload: { summary: 's'.repeat(PAGERDUTY_SUMMARY_MAX + 1) } }, 'payload.summary'],
    [{ routing_key: KEY, payload: { summary: 'ok', timestamp: 'soon' } }, 'payload.timestamp'],
    [{ routing_key: KEY, payload: { summary: 'ok', custom_details: 'x' } }, 'payload.custom_details'],
    [{ routing_key: KEY, payload: { summary: 'ok' }, links: { href: 'https://x' } }, 'links'],
    [{ routing_key: KEY, payload: { summary: 'ok' }, links: [{ text: 'no href' }] }, 'links.0.href'],
    [{ routing_key: KEY, payload: { summary: 'ok' }, links: [{ href: 'javascript:alert(1)' }] }, 'links.0.href'],
    [[], 'body'],
  ])('a malformed change event is a 400 naming the field (%#)', (body, field) => {
    expect(refused(body)).toBe(field);
  });

  it('the summary may be exactly PagerDuty\'s 1,024 characters', () => {
    expect(parsePagerduty({ routing_key: KEY, payload: { summary: 's'.repeat(PAGERDUTY_SUMMARY_MAX) } }, ctx).events).toHaveLength(1);
  });

  it('any JSON whatever is recorded or refused with a 400 naming a field, never another error', () => {
    const any = fc.jsonValue();
    fc.assert(fc.property(fc.oneof(any, fc.record({ routing_key: any, links: fc.oneof(any, fc.array(fc.record({ href: any, text: any }, { requiredKeys: [] }))), payload: fc.oneof(any, fc.record({ summary: any, timestamp: any, source: any, custom_details: any }, { requiredKeys: [] })) }, { requiredKeys: [] })), (body) => {
      try {
        expect(parsePagerduty(body, ctx).events).toHaveLength(1);
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        expect([(e as AppError).status, typeof (e as AppError).field]).toEqual([400, 'string']);
      }
    }));
  });
});
