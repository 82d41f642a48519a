import { describe, expect, it } from 'vitest';
import { generateApiToken } from './crypto/tokens.js';
import { CUT_MARK, cutText, REDACTED, scrubJson, scrubSecrets } from './scrub.js';

const ourToken = generateApiToken().value;

describe('scrubSecrets', () => {
  it.each([
    ['a bearer token', 'GET /cart Authorization: Bearer eyJz9aXk3b1c2d3e4f5g', 'GET /cart Authorization: Bearer [redacted]'],
    ['a basic credential', 'proxy sent Basic dXNlcjpwYXNzd29yZA==', 'proxy sent Basic [redacted]'],
    ['a password in a URL, user and host kept', 'dial postgres://app:s3cr3t@db.internal:5432/app failed', 'dial postgres://app:[redacted]@db.internal:5432/app failed'],
    ['password=value', 'login failed password=hunter2 user=bob', 'login failed password=[redacted] user=bob'],
    ['api_key: value and a quoted value', 'api_key: 12ab34cd, client_secret="x y z"', 'api_key: [redacted], client_secret="[redacted]"'],
    ['a dotted and a prefixed name', 'db.password=pw1 X-Api-Key=k-99 aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'db.password=[redacted] X-Api-Key=[redacted] aws_secret_access_key=[redacted]'],
    ['a JSON secret field', '{"user":"bob","password":"hunter2","token":"abc"}', '{"user":"bob","password":"[redacted]","token":"[redacted]"}'],
    ['an AWS access key id', 'signing with AKIAIOSFODNN7EXAMPLE now', 'signing with [redacted](aws-key) now'],
    ['a JWT', 'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U rejected', 'jwt [redacted](jwt) rejected'],
    ['our own API token', `token ${ourToken} revoked`, 'token clt_[redacted] revoked'],
    ['our own callback secret', `secret cs_${'A'.repeat(43)} rotated`, 'secret cs_[redacted] rotated'],
    ['provider keys', 'openai sk-proj-abcdefghijklmnopqrstuvwx github ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'openai [redacted] github [redacted]'],
    ['a PEM private key', 'key -----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY----- loaded', 'key -----BEGIN PRIVATE KEY----- [redacted] -----END PRIVATE KEY----- loaded'],
  ])('redacts %s', (_name, text, scrubbed) => {
    expect(scrubSecrets(text)).toBe(scrubbed);
  });

  it.each([
    'Basic validation failed for user bob',
    'token expired for session of user 42',
    'author: Bob, passes: 3',
    'GET https://api.example.com/v1/orders/42 took 12 ms',
    'payment 8812 failed: upstream 10.0.0.7 reset',
  ])('leaves a message without a secret as it is: %s', (text) => {
    expect(scrubSecrets(text)).toBe(text);
  });

  it('never leaves the secret of a redacted line anywhere in it', () => {
    const secrets = ['hunter2', 's3cr3t', 'AKIAIOSFODNN7EXAMPLE', ourToken];
    const line = `user=bob password=hunter2 url=https://u:s3cr3t@x.example key=AKIAIOSFODNN7EXAMPLE auth=${ourToken}`;
    const out = scrubSecrets(line);
    for (const s of secrets) expect(out).not.toContain(s);
  });
});

describe('cutting a scrubbed text to its limit', () => {
  it('keeps a text that fits and ends a longer one with the cut mark, the limit long in all', () => {
    expect(cutText('x'.repeat(2048), 2048)).toBe('x'.repeat(2048));
    const cut = cutText('y'.repeat(5000), 2048);
    expect(cut).toHaveLength(2048);
    expect(cut.endsWith(CUT_MARK)).toBe(true);
  });
});

describe('scrubbing request parameters (JSON)', () => {
  it('redacts a secret-named key\'s value whole and scrubs every nested string, keeping the keys', () => {
    const params = { name: 'db-url', password: 'hunter2', nested: { apiKey: 12345, note: 'url=https://u:s3cr3t@db.example' }, list: ['Bearer abcdef123456'], tokenName: 'ci' };
    expect(scrubJson(params)).toEqual({
      name: 'db-url', password: REDACTED, nested: { apiKey: REDACTED, note: `url=https://u:${REDACTED}@db.example` }, list: [`Bearer ${REDACTED}`], tokenName: 'ci',
    });
  });
});
