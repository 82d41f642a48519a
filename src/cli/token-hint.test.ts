import { expect, it } from 'vitest';
import { runCli } from '../../test/support/spawn-server.js';

// The hint names the place as the web UI's menu does ("API tokens"), for both command groups.
it('without a token, flags and changes exit 2 pointing at the menu entry "API tokens"', async () => {
  const env = { CHANGELEDGER_TOKEN: '' };
  const [flags, changes] = await Promise.all([
    runCli(['flags', 'list', '--server', 'http://127.0.0.1:9'], { env }),
    runCli(['changes', 'status', 'chg_x', '--server', 'http://127.0.0.1:9'], { env }),
  ]);
  for (const r of [flags, changes]) {
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('in the web UI under API tokens');
  }
});
