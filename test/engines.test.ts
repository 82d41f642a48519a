import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/platform/paths.js';

// package.json says which Node we run on; every package the lock installs must say so too, or
// `npm ci` warns EBADENGINE on the Node README promises.

type Version = [number, number, number];

/** A version or partial version (`20`, `20.19`, `20.x`, `*`): the numbers given, null past them. */
function partial(text: string): (number | null)[] {
  const parts = text.replace(/^v/, '').split('-')[0]!.split('.').slice(0, 3);
  const nums = parts.map((p) => (/^\d+$/.test(p) ? Number(p) : null));
  const cut = nums.indexOf(null);
  return cut === -1 ? nums : nums.slice(0, cut);
}
const cmp = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
const low = (p: (number | null)[]): Version => [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0];
/** The first version past everything the partial names: 20 → 21.0.0, 20.19 → 20.20.0. */
function past(p: (number | null)[]): Version {
  if (p.length === 0) return [Infinity, 0, 0];
  if (p.length === 1) return [p[0]! + 1, 0, 0];
  if (p.length === 2) return [p[0]!, p[1]! + 1, 0];
  return [p[0]!, p[1]!, p[2]! + 1];
}

function comparator(v: Version, c: string): boolean {
  const [, op = '', rest = ''] = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(c)!;
  const p = partial(rest);
  switch (op) {
    case '>=': return cmp(v, low(p)) >= 0;
    case '>': return cmp(v, past(p)) >= 0;
    case '<': return cmp(v, low(p)) < 0;
    case '<=': return cmp(v, past(p)) < 0;
    case '^': {
      const upper: Version = (p[0] ?? 0) > 0 || p.length < 2 ? [(p[0] ?? 0) + 1, 0, 0] : (p[1] ?? 0) > 0 || p.length < 3 ? [0, p[1]! + 1, 0] : [0, 0, p[2]! + 1];
      return cmp(v, low(p)) >= 0 && cmp(v, upper) < 0;
    }
    case '~': return cmp(v, low(p)) >= 0 && cmp(v, past(p.length >= 2 ? p.slice(0, 2) : p)) < 0;
    default: return cmp(v, low(p)) >= 0 && cmp(v, past(p)) < 0;
  }
}

/** Whether a version satisfies an engines range of the forms npm packages write. */
function satisfies(version: string, range: string): boolean {
  const v = low(partial(version));
  return range.split('||').some((alt) => {
    const comparators = alt.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter((c) => c !== '');
    return comparators.length === 0 || comparators.every((c) => comparator(v, c));
  });
}

describe('the Node that package.json declares', () => {
  const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync(join(packageRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; engines?: unknown }> };
  // The lowest version package.json admits: ">=20.19" → 20.19.0.
  const lowest = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(pkg.engines.node)?.[1];

  it('reads engines ranges as npm does', () => {
    const cases: Array<[string, string, boolean]> = [
      ['20.19.0', '>=22', false],
      ['20.19.0', '^20.19.0 || >=22.12.0', true],
      ['20.18.3', '^20.19.0 || >=22.12.0', false],
      ['20.19.0', '18 || 20 || >=22', true],
      ['20.19.0', '>= 0.6', true],
      ['20.19.0', '^20.0.0 || ^22.0.0 || >=24.0.0', true],
      ['20.19.0', '>=20.19.1', false],
      ['20.19.0', '^18.18.0 || ^20.9.0 || >=21.1.0', true],
      ['20.19.0', '>=18 <20', false],
      ['20.19.0', '~20.18.0', false],
      ['20.19.0', '20.x', true],
      ['20.19.0', '*', true],
    ];
    for (const [version, range, ok] of cases) expect(satisfies(version, range), `${version} in ${range}`).toBe(ok);
  });

  it('is one every installed package accepts, so npm ci prints no EBADENGINE', () => {
    expect(lowest, 'package.json engines.node is ">=X.Y"').toBeDefined();
    const refusing = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .flatMap(([path, p]) => {
        const range = (p.engines as { node?: unknown } | undefined)?.node;
        return typeof range === 'string' && !satisfies(lowest!, range) ? [`${path.replace(/^.*node_modules\//, '')}@${p.version} wants node ${range}`] : [];
      });
    expect(refusing).toEqual([]);
  });
});
