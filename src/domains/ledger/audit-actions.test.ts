import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, isAuditAction, renderAuditActions } from './audit-actions.js';

const root = new URL('../../../', import.meta.url);
const LEDGER_DOC = new URL('docs/ledger.md', root);

/** Every non-test TypeScript file under src/. */
function sourceFiles(dir = new URL('src/', root).pathname): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(path);
    return d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * The actions written as literals: `action: 'x.y'` (or a choice of two literals) in a file that
 * appends audit events, and the flag service's `record(tx, …, 'flag.x')`. Actions built from a
 * template (`change.${…}`) are caught by the ledger's own check when a test writes them.
 */
function writtenLiterals(): Map<string, string> {
  const found = new Map<string, string>();
  const lit = `'([a-z_]+\\.[a-z_]+)'`;
  const patterns = [new RegExp(`\\baction:\\s*(?:[\\w.!]+\\s*\\?\\s*)?${lit}(?:\\s*:\\s*${lit})?`, 'g'), new RegExp(`\\.record\\(tx,[^\\n]*?${lit}(?:\\s*:\\s*${lit})?`, 'g')];
  for (const file of sourceFiles()) {
    const text = readFileSync(file, 'utf8');
    if (!/appendAuditEvent|appendAtCommit|this\.audit\(/.test(text)) continue;
    for (const re of patterns) for (const m of text.matchAll(re)) for (const a of m.slice(1)) if (a !== undefined) found.set(a, file);
  }
  return found;
}

describe('the registry of audit actions', () => {
  it('names each action once', () => {
    const all = Object.values(AUDIT_ACTIONS).flatMap((g) => [...g.actions]);
    expect(all.filter((a, i) => all.indexOf(a) !== i)).toEqual([]);
  });

  it('lists every action the code writes as a literal', () => {
    const written = writtenLiterals();
    // The scan must see the code it checks: far more than a handful of actions.
    expect(written.size).toBeGreaterThan(40);
    expect([...written].filter(([a]) => !isAuditAction(a)).map(([a, file]) => `${a} (${file})`)).toEqual([]);
  });

  it('is what docs/ledger.md lists under "Actions"', () => {
    const text = readFileSync(LEDGER_DOC, 'utf8');
    const block = /<!-- audit-actions:start[^>]*-->\n([\s\S]*?)\n<!-- audit-actions:end -->/.exec(text);
    expect(block, 'docs/ledger.md needs the block <!-- audit-actions:start --> … <!-- audit-actions:end -->').not.toBeNull();
    expect(block![1]).toBe(renderAuditActions());
  });

  it('includes the actions a change leaves in the log', () => {
    for (const a of ['change.registered', 'change.approval_given', 'settings.change_approvers_updated', 'change.callback_delivered']) expect(isAuditAction(a), a).toBe(true);
    expect(isAuditAction('change.created')).toBe(false);
  });
});
