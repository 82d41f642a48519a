import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// DESIGN's one-way arrows, checked on the code: every import between domains, as TypeScript resolves it.
const DOMAINS = dirname(fileURLToPath(import.meta.url));
const ROOT = join(DOMAINS, '..', '..');

/**
 * The levels of DESIGN's "Arrows point one way": a domain may import only a domain of a lower level;
 * two of one level (flags and changes; deliveries and incidents) never import each other.
 */
const LEVELS: Record<string, number> = {
  ledger: 0, auth: 1, catalogue: 2, flags: 3, changes: 3,
  deliveries: 4, incidents: 4, alerts: 4, evidence: 5, observed: 4, governance: 4, mcp: 6,
};

type Edge = { from: string; to: string; file: string; specifier: string };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    // Tests may reach anywhere for their fixtures; the arrows are about the product's code.
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

const domainOf = (file: string): string | null => {
  const rel = relative(DOMAINS, file);
  return rel.startsWith('..') || !rel.includes(sep) ? null : rel.split(sep)[0]!;
};

/** Every import (static, type-only, re-export, dynamic) from one domain's file into another domain. */
function domainEdges(): Edge[] {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
  const edges: Edge[] = [];
  for (const file of sourceFiles(DOMAINS)) {
    const from = domainOf(file)!;
    for (const imported of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const resolved = ts.resolveModuleName(imported.fileName, file, options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const to = domainOf(resolved.resolvedFileName);
      if (to && to !== from) edges.push({ from, to, file: relative(ROOT, file), specifier: imported.fileName });
    }
  }
  return edges;
}

/** Each cycle of domains once, as a path a → b → … → a, with the import that makes each step. */
function cycles(edges: Edge[]): string[] {
  const next = new Map<string, Map<string, Edge>>();
  for (const e of edges) {
    const out = next.get(e.from) ?? new Map<string, Edge>();
    if (!out.has(e.to)) out.set(e.to, e);
    next.set(e.from, out);
  }
  const found = new Set<string>();
  const walk = (start: string, at: string, path: Edge[]) => {
    for (const [to, e] of next.get(at) ?? []) {
      if (to === start) found.add([...path, e].map((x) => `${x.from} → ${x.to} (${x.file} imports ${x.specifier})`).join(', '));
      // One spelling per cycle: it starts at its smallest name, so the walk visits only larger ones.
      else if (!path.some((x) => x.from === to) && to > start) {
        walk(start, to, [...path, e]);
      }
    }
  };
  for (const d of next.keys()) walk(d, d, []);
  return [...found];
}

describe('imports between domains', () => {
  const edges = domainEdges();

  it('finds the imports it judges: deliveries uses changes, changes uses catalogue (the scan is not blind)', () => {
    expect(edges.some((e) => e.from === 'deliveries' && e.to === 'changes')).toBe(true);
    expect(edges.some((e) => e.from === 'changes' && e.to === 'catalogue')).toBe(true);
  });

  it('no two domains import each other, and no longer cycle runs through them', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('a domain imports only domains below it in DESIGN\'s arrows (changes reaches deliveries only through its own seams)', () => {
    const upward = edges
      .filter((e) => LEVELS[e.to] === undefined || LEVELS[e.from] === undefined || LEVELS[e.to]! >= LEVELS[e.from]!)
      .map((e) => `${e.from} → ${e.to}: ${e.file} imports ${e.specifier}`);
    expect([...new Set(upward)]).toEqual([]);
  });

  it('the cycle check reports a cycle when there is one', () => {
    const made = cycles([
      { from: 'changes', to: 'deliveries', file: 'a.ts', specifier: '../deliveries/x.js' },
      { from: 'deliveries', to: 'changes', file: 'b.ts', specifier: '../changes/y.js' },
    ]);
    expect(made).toEqual(['changes → deliveries (a.ts imports ../deliveries/x.js), deliveries → changes (b.ts imports ../changes/y.js)']);
  });
});
