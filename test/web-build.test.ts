import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/platform/paths.js';
import { config } from '../web/vite.config.js';

// `npm start` builds the UI, then starts the server: the build must not print between them.
describe('the web build that npm start runs', () => {
  it('leaves out the plugin timings report of rolldown', () => {
    expect(config).toMatchObject({ build: { rolldownOptions: { checks: { bundlerTimings: false } } } });
  });

  it('prints only warnings and errors, and npm start runs it without the banner of npm', () => {
    const { scripts } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts['build']).toMatch(/vite build --config web\/vite\.config\.ts --logLevel warn$/);
    expect(scripts['start']).toBe('npm run --silent build && node bin/changeledger.js serve');
  });
});
