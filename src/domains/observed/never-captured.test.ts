import { describe, expect, it } from 'vitest';
import { neverCaptured } from './never-captured.js';
import type { SourceKind } from './observed-types.js';

// What the list says it cannot see follows the connected kinds: each line appears exactly when it holds.
const starts = (kinds: SourceKind[], prefix: string) => neverCaptured(kinds).some((l) => l.startsWith(prefix));

describe('what is never captured', () => {
  const cases: Array<[string, SourceKind[], string, boolean]> = [
    ['nothing connected: only registered changes and flag writes', [], 'anything outside changeledger', true],
    ['one connection is enough to drop that line', ['webhook'], 'anything outside changeledger', false],
    ['no AWS or Azure: no cloud write at all', ['github'], 'cloud control-plane writes at all', true],
    ['AWS connected: cloud writes are seen', ['aws'], 'cloud control-plane writes at all', false],
    ['AWS without Azure: Azure writes are not', ['aws'], 'Azure writes at all', true],
    ['Azure without AWS: AWS writes are not', ['azure'], 'AWS writes at all', true],
    ['a cloud connection: data-plane writes still are not', ['azure'], 'data-plane writes', true],
    ['AWS: values written to parameter stores', ['aws'], 'the values written to Parameter Store', true],
    ['AWS: undeclared regions', ['aws'], 'AWS writes in regions', true],
    ['no AWS: no region line', ['azure'], 'AWS writes in regions', false],
    ['no Git connection', ['kubernetes'], 'pushes, merges and releases', true],
    ['GitLab connected', ['gitlab'], 'pushes, merges and releases', false],
    ['no Kubernetes audit', ['github'], 'Kubernetes objects edited directly', true],
    ['a Kubernetes audit connection', ['kubernetes'], 'Kubernetes objects edited on a cluster whose audit webhook', true],
    ['no Argo CD', ['github'], 'Argo CD syncs', true],
    ['Argo CD connected', ['argocd'], 'Argo CD syncs', false],
    ['always: inside a VM or a container', ['aws', 'azure', 'kubernetes', 'github'], 'files, packages and registry settings', true],
  ];
  for (const [name, kinds, prefix, expected] of cases) {
    it(`${name}: "${prefix}…" ${expected ? 'listed' : 'not listed'}`, () => {
      expect(starts(kinds, prefix), neverCaptured(kinds).join('\n')).toBe(expected);
    });
  }

  it('names what Git and Argo CD do show when no cluster audit is connected', () => {
    const line = neverCaptured(['github', 'argocd']).find((l) => l.startsWith('Kubernetes objects edited directly'))!;
    expect(line).toMatch(/only pushes to the connected repositories and Argo CD syncs are seen/);
  });

  it('says whether an application’s own settings can reach us', () => {
    expect(neverCaptured([]).find((l) => l.startsWith('settings changed inside an application'))).toMatch(/no generic webhook/);
    expect(neverCaptured(['cloudevents']).find((l) => l.startsWith('settings changed inside an application'))).toMatch(/that it does not report/);
  });
});
