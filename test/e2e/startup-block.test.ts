import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { version } from '../../src/config.js';
import { startServer } from '../support/spawn-server.js';

// What a person reads in the terminal after `npm start`: one short block, nothing else on
// standard error, the sign-in link on a line of its own.

const TOKEN = '[A-Za-z0-9_-]{43}';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the start-up block of changeledger serve', () => {
  it('on an empty data directory says where both listeners are and gives the one-time link, alone on standard error', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'changeledger-startup-'));
    try {
      const first = await startServer({ dataDir, args: ['--org-name', 'Platform team', '--owner-email', 'lead@example.test'] });
      let link: string;
      try {
        const lines = first.stderr().split('\n');
        expect(lines.slice(0, 5)).toEqual([
          '',
          `changeledger ${version}: embedded database in ${dataDir}`,
          `  web UI and API on ${first.url}`,
          `  pipeline listener on ${first.pipelineUrl} (API tokens only)`,
          '',
        ]);
        expect(lines.slice(5, 7)).toEqual([
          '  first start: created organisation "Platform team" and its owner lead@example.test.',
          '  Sign in once with this link (valid 24 hours, single use), then set a password under Account:',
        ]);
        expect(lines[7]).toMatch(new RegExp(`^  ${escape(first.url)}/signin/link#${TOKEN}$`));
        expect(lines.slice(8)).toEqual(['', '']);
        link = lines[7]!.trim();
        const res = await fetch(`${first.url}/api/session/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: link.split('#')[1] }) });
        expect(res.status).toBe(200);
      } finally {
        expect(await first.stop()).toBe(0);
      }

      // Until the owner sets a password, each start gives them a new link, in the same place.
      const second = await startServer({ dataDir });
      try {
        const lines = second.stderr().split('\n');
        expect(lines.slice(0, 5)).toEqual(['', `changeledger ${version}: embedded database in ${dataDir}`, `  web UI and API on ${second.url}`, `  pipeline listener on ${second.pipelineUrl} (API tokens only)`, '']);
        expect(lines[5]).toBe('  no owner has set a password yet; lead@example.test can sign in once with this link (valid 24 hours):');
        expect(lines[6]).toMatch(new RegExp(`^  ${escape(second.url)}/signin/link#${TOKEN}$`));
        expect(lines[6]!.trim()).not.toBe(link);
        expect(lines.slice(7)).toEqual(['', '']);
      } finally {
        expect(await second.stop()).toBe(0);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
