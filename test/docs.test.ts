import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCOPES } from '../src/domains/auth/scopes.js';
import { packageRoot } from '../src/platform/paths.js';

// README is the front door and docs/ the reference: what they claim about the code is checked
// against the code here, so the words cannot drift from it.

const read = (path: string) => readFileSync(join(packageRoot, path), 'utf8');
const docFiles = ['README.md', ...readdirSync(join(packageRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
/** Markdown without fenced blocks and code spans: links and UI words only in the prose. */
const prose = (md: string) => md.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
const anchorsOf = (md: string) => new Set([...md.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));

describe('README and docs/', () => {
  it('link only to files that exist, and to headings those files have', () => {
    const broken: string[] = [];
    for (const file of docFiles) {
      for (const m of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
        const href = m[1]!;
        if (/^[a-z]+:/.test(href)) continue;
        const [path = '', anchor] = href.split('#');
        const target = path === '' ? file : relative(packageRoot, join(packageRoot, dirname(file), path));
        if (!existsSync(join(packageRoot, target))) broken.push(`${file}: ${href} (no ${target})`);
        else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(read(target)).has(anchor)) broken.push(`${file}: ${href} (no heading #${anchor} in ${target})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('give README a Quick start of two command lines that package.json runs, on the Node it declares', () => {
    const readme = read('README.md');
    const quick = /## Quick start\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
    const commands = /```sh\n([\s\S]*?)```/.exec(quick)?.[1]?.trim().split('\n') ?? [];
    expect(commands).toEqual(['npm ci && npm start', 'npm test']);
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; engines: { node: string } };
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(['start', 'test']));
    // "Needs Node.js 20.19+" is package.json's ">=20.19".
    const needs = /Needs Node\.js (\d+\.\d+)\+/.exec(quick)?.[1];
    expect(`>=${needs}`).toBe(pkg.engines.node);
  });

  it('list the scopes a token can have, all of them', () => {
    const sentence = /Scopes: ([^.]*)\./.exec(read('docs/auth.md').replace(/\n/g, ' '))?.[1] ?? '';
    expect([...sentence.matchAll(/`([a-z]+:[a-z]+)`/g)].map((m) => m[1])).toEqual([...SCOPES]);
  });

  it('start every menu path (Changes → Register a change) at an entry of the side menu', () => {
    const labels = new Set([...read('web/src/components/layout.tsx').matchAll(/\blabel: '([^']+)'/g)].map((m) => m[1]!));
    expect(labels.size).toBeGreaterThan(5);
    const unknown: string[] = [];
    for (const file of docFiles) {
      for (const m of prose(read(file)).matchAll(/(?:^|[\s(])\**([A-Z][A-Za-z ]*?)\** → (?=\**[A-Z])/gm)) if (!labels.has(m[1]!)) unknown.push(`${file}: ${m[1]} →`);
    }
    expect(unknown).toEqual([]);
  });
});
