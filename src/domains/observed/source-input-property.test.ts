import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldError } from '../../platform/errors.js';
import { judgeUrlLiteral } from '../../platform/net/outbound.js';
import { applySettings, DEFAULT_OBSERVED_SETTINGS } from './observed-settings.js';
import { SOURCE_KINDS } from './observed-types.js';
import { checkCredential, checkSourceConfig } from './source-config.js';

const judge = (url: string) => judgeUrlLiteral(url, { allowPrivate: false, allowLoopback: false });
/** Anything a client can send as JSON, with the keys these checks read mixed in. */
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('repos', 'projects', 'regions', 'apiUrl', 'endpoint', 'cluster', 'subscription', 'x', 'acme/*', '[', 'accessKeyId', 'secretAccessKey'), tie('value'), { maxKeys: 4 })),
})).value;

/** Only a FieldError (a 400 naming the field) may come out of a check; anything else would be a 500. */
const onlyFieldErrors = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(FieldError);
    expect((err as FieldError).field).toBeTruthy();
  }
};

describe('change-source and settings input, whatever is sent', () => {
  it('a connection\'s config and credential are taken or refused with a field, never thrown otherwise', () => {
    fc.assert(fc.property(fc.constantFrom(...SOURCE_KINDS), json, json, (kind, config, credential) => {
      onlyFieldErrors(() => checkSourceConfig(kind, config, 'name', judge));
      onlyFieldErrors(() => checkCredential(kind, credential));
    }), { numRuns: 1500 });
  });

  it('the settings are taken or refused with a field, never thrown otherwise', () => {
    const input = fc.record({ pullIntervalSeconds: json, ciNamespaces: json, serviceMap: json, resourceMap: json }, { requiredKeys: [] });
    fc.assert(fc.property(input, (i) => onlyFieldErrors(() => applySettings(DEFAULT_OBSERVED_SETTINGS, i))), { numRuns: 1500 });
  });
});
