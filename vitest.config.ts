import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Room for a machine running two suites at once (load ≈ 9 on 2 cores), where a test that takes
    // 5 s alone can take 30: a timeout here is a wait for an answer, never a measure of speed.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // expect.poll waits for a page or a worker to catch up: as long as a browser step may (15 s),
    // not vitest's default of 1 s, which a busy machine outlasts. A poll that passes ends at once.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default'],
  },
});
