import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/platform/paths.js';
import { cliEntry } from '../support/spawn-server.js';

// The bundle loads some modules at their first use, from dist/bundle/chunks (scripts/bundle-server.mjs):
// the AWS SDK, nodemailer, the MCP SDK. esbuild gives a CommonJS package loaded by import() into a
// chunk of its own only a default export, so a named call into it fails at run time; the tests that
// run the sources through tsx cannot see that. npm test builds first; a stale build is said, not used.
const bundle = join(packageRoot, 'dist', 'bundle');
const fresh = cliEntry()[0]?.endsWith('changeledger.js') ?? false;
if (!fresh) console.warn('bundle-chunks: dist/bundle is older than src/ or missing: run npm run build (npm test does) to check it');

describe('the built bundle', () => {
  it.skipIf(!fresh)('every module it loads at first use exists and gives named exports, the ones the server calls among them', async () => {
    const main = readFileSync(join(bundle, 'main.js'), 'utf8');
    const lazy = [...new Set([...main.matchAll(/import\("\.\/(chunks\/[\w.-]+\.js)"\)/g)].map((m) => m[1]!))];
    const named = new Map<string, string[]>();
    for (const file of lazy) {
      const ns = (await import(pathToFileURL(join(bundle, file)).href)) as Record<string, unknown>;
      named.set(file.replace(/^chunks\/|-[A-Z0-9]+\.js$/g, ''), Object.keys(ns).filter((k) => k !== 'default').sort());
    }
    expect(Object.fromEntries(named)).toMatchObject({
      'cloud-trail-sdk': ['CloudTrailClient', 'LookupEventsCommand'],
      'smtp-transport': ['createTransport'],
      'mcp-server': expect.arrayContaining(['buildMcpServer']),
      webStandardStreamableHttp: expect.arrayContaining(['WebStandardStreamableHTTPServerTransport']),
      stdio: expect.arrayContaining(['StdioServerTransport']),
      streamableHttp: expect.arrayContaining(['StreamableHTTPClientTransport']),
    });
    for (const [chunk, names] of named) expect(names, `${chunk} gives only a default export`).not.toEqual([]);
    // Nothing else is split off: a new lazy module is named here when it is made.
    expect([...named.keys()].sort()).toEqual(['cloud-trail-sdk', 'mcp-server', 'smtp-transport', 'stdio', 'streamableHttp', 'webStandardStreamableHttp']);
  });
});
