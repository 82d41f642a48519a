import { describe, expect, it } from 'vitest';
import { MAX_TEMPLATE_LENGTH, maskMessage } from './log-fingerprint.js';

describe('maskMessage', () => {
  it.each([
    ['numbers, with units kept', 'order 12345 failed after 250ms, retry 3 of 5', 'order <n> failed after <n>ms, retry <n> of <n>'],
    ['decimals and signs', 'balance -12.50 below 0.0', 'balance <n> below <n>'],
    ['a UUID', 'user 3f1e2a4b-1c2d-4e5f-8a9b-0c1d2e3f4a5b not found', 'user <uuid> not found'],
    ['hex ids: a trace id, 0x, a short commit', 'trace 4bf92f3577b34da6a3ce929d0e0e4736 at 0xdeadbeef build 7f9c8d5', 'trace <hex> at <hex> build <hex>'],
    ['IPv4 with a port, IPv6', 'connect 10.0.0.12:5432 refused, fallback fe80::1ff:fe23:4567:890a', 'connect <ip> refused, fallback <ip>'],
    ['quoted values', 'key "cart:991" missing in \'eu-west\'', 'key <q> missing in <q>'],
    ['RFC 3339 and log-style timestamps', 'since 2026-05-01T12:00:00.123Z (was 2026-04-30 23:59:59,001) at 12:30:01', 'since <ts> (was <ts>) at <ts>'],
    ['nginx and syslog times', '01/May/2026:12:00:00 +0000 and May  1 12:00:00', '<ts> and <ts>'],
    ['a URL and an e-mail', 'GET https://api.example.com/v1/orders/42?x=1 for bob@example.com', 'GET <url> for <email>'],
    ['secrets before masking', 'login failed password=hunter2 attempt 3', 'login failed password=[redacted] attempt <n>'],
    ['words with digits kept: http2, s3, v2', 'http2 stream to s3 v2 reset', 'http2 stream to s3 v2 reset'],
    ['runs of spaces', 'a   b\n\tc', 'a b c'],
  ])('masks %s', (_name, text, template) => {
    expect(maskMessage(text)).toBe(template);
  });

  it('gives one template to one error logged with different ids', () => {
    const a = maskMessage('payment 8812 for order 3f1e2a4b-1c2d-4e5f-8a9b-0c1d2e3f4a5b declined by 10.1.2.3');
    const b = maskMessage('payment 9 for order 00000000-1111-4222-8333-444444444444 declined by 192.168.0.1');
    expect(a).toBe(b);
  });

  it(`cuts a template at ${MAX_TEMPLATE_LENGTH} characters`, () => {
    const t = maskMessage(`stack: ${'frame at handler '.repeat(100)}`);
    expect(t.length).toBe(MAX_TEMPLATE_LENGTH + 1);
    expect(t.endsWith('…')).toBe(true);
  });
});
