import { describe, expect, it } from 'vitest';
import { serveConfig, storeConfig, trustProxyConfig } from './config.js';

describe('--trust-proxy', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['10.0.0.5', ['10.0.0.5']],
    [' 10.0.0.5 , 10.1.0.0/16 ', ['10.0.0.5', '10.1.0.0/16']],
    ['::1,fd00::/8', ['::1', 'fd00::/8']],
  ])('takes %j as %j', (text, expected) => {
    expect(trustProxyConfig(text)).toEqual(expected);
  });

  it.each(['true', '*', 'proxy.internal', '10.0.0.0/33', '::/129', '10.0.0.0/8/8', '10.0.0.0/x'])('refuses %j, naming the option and the entry', (text) => {
    expect(() => trustProxyConfig(text)).toThrow(`--trust-proxy takes addresses or CIDR ranges separated by commas (10.0.0.5,10.1.0.0/16), got "${text}"`);
  });

  it('is read from CHANGELEDGER_TRUST_PROXY when the option is absent, and trusts nobody by default', () => {
    expect(serveConfig({}, { CHANGELEDGER_TRUST_PROXY: '10.0.0.5' }).trustProxy).toEqual(['10.0.0.5']);
    expect(serveConfig({ trustProxy: '10.0.0.6' }, { CHANGELEDGER_TRUST_PROXY: '10.0.0.5' }).trustProxy).toEqual(['10.0.0.6']);
    expect(serveConfig({}, {}).trustProxy).toEqual([]);
  });
});

describe('CHANGELEDGER_TEST_ONLY_AI_BUDGET_MS', () => {
  it('is the product’s two minutes unless set, and a shorter budget when set', () => {
    expect(serveConfig({}, {}).testOnlyAiBudgetMs).toBeNull();
    expect(serveConfig({}, { CHANGELEDGER_TEST_ONLY_AI_BUDGET_MS: '500' }).testOnlyAiBudgetMs).toBe(500);
  });
  it.each(['0', '-1', '1.5', 'soon', '120001'])('refuses %s in words', (raw) => {
    expect(() => serveConfig({}, { CHANGELEDGER_TEST_ONLY_AI_BUDGET_MS: raw })).toThrow(`CHANGELEDGER_TEST_ONLY_AI_BUDGET_MS (test only) must be a whole number of milliseconds from 1 to 120000, got "${raw}"`);
  });
});

describe('CHANGELEDGER_TEST_ONLY_HOLD_RELEASE_DELAY_MS', () => {
  it('leaves the product’s five minutes unless a test sets it', () => {
    expect(serveConfig({}, {}).testOnlyHoldReleaseDelayMs).toBeNull();
    expect(serveConfig({}, { CHANGELEDGER_TEST_ONLY_HOLD_RELEASE_DELAY_MS: '' }).testOnlyHoldReleaseDelayMs).toBeNull();
    expect(serveConfig({}, { CHANGELEDGER_TEST_ONLY_HOLD_RELEASE_DELAY_MS: '2500' }).testOnlyHoldReleaseDelayMs).toBe(2500);
  });

  it.each(['soon', '-1', '1.5', '300001'])('refuses %j, saying it is test only', (raw) => {
    expect(() => serveConfig({}, { CHANGELEDGER_TEST_ONLY_HOLD_RELEASE_DELAY_MS: raw })).toThrow(`CHANGELEDGER_TEST_ONLY_HOLD_RELEASE_DELAY_MS (test only) must be a whole number of milliseconds from 0 to 300000, got "${raw}"`);
  });
});

describe('CHANGELEDGER_DB_POOL_SIZE', () => {
  it('is ten connections unless set', () => {
    expect(storeConfig({}, {}).poolSize).toBe(10);
    expect(storeConfig({}, { CHANGELEDGER_DB_POOL_SIZE: '25' }).poolSize).toBe(25);
  });

  it.each(['0', '-1', '2.5', 'ten', '1001'])('refuses %j, naming the variable and the range', (text) => {
    expect(() => storeConfig({}, { CHANGELEDGER_DB_POOL_SIZE: text })).toThrow(`CHANGELEDGER_DB_POOL_SIZE must be a whole number of connections from 1 to 1000, got "${text}"`);
  });
});

describe('CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB', () => {
  it('is 16 MiB unless set', () => {
    expect(storeConfig({}, {}).pgliteSharedBuffersMb).toBe(16);
    expect(storeConfig({}, { CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB: '128' }).pgliteSharedBuffersMb).toBe(128);
  });

  it.each(['0', '-1', '1.5', '16MB', '4097'])('refuses %j, naming the variable and the range', (text) => {
    expect(() => storeConfig({}, { CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB: text })).toThrow(`CHANGELEDGER_PGLITE_SHARED_BUFFERS_MB must be a whole number of MiB from 1 to 4096, got "${text}"`);
  });
});

describe('CHANGELEDGER_DB_PREPARED_STATEMENTS', () => {
  it('is on unless set off', () => {
    expect(storeConfig({}, {}).preparedStatements).toBe(true);
    expect(storeConfig({}, { CHANGELEDGER_DB_PREPARED_STATEMENTS: '' }).preparedStatements).toBe(true);
    expect(storeConfig({}, { CHANGELEDGER_DB_PREPARED_STATEMENTS: 'off' }).preparedStatements).toBe(false);
    expect(storeConfig({}, { CHANGELEDGER_DB_PREPARED_STATEMENTS: 'on' }).preparedStatements).toBe(true);
  });

  it.each(['false', '0', 'OFF', 'no'])('refuses %j, naming the variable and what it takes', (text) => {
    expect(() => storeConfig({}, { CHANGELEDGER_DB_PREPARED_STATEMENTS: text })).toThrow(`CHANGELEDGER_DB_PREPARED_STATEMENTS must be on or off, got "${text}"`);
  });
});
