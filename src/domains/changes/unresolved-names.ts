/**
 * The refusal a person reads when a name of theirs is not exactly one catalogue entity. Pure.
 * It offers candidates only where there are some; a name with none says what to do instead.
 */

type Unresolved = { query: string; candidates: readonly unknown[] };

export function unresolvedMessage(unresolved: readonly Unresolved[]): string {
  const orphans = unresolved.filter((u) => u.candidates.length === 0);
  if (orphans.length === 0) return `not recognised: ${unresolved.map((u) => u.query).join(', ')} — pick one of ${unresolved.length === 1 ? 'its' : 'their'} candidates`;
  const parts = unresolved.map((u) => `${u.query} (${u.candidates.length === 0 ? 'nothing in the catalogue matches it' : 'pick one of its candidates'})`);
  const it = orphans.length === 1 ? 'it' : 'each';
  return `not recognised: ${parts.join(', ')} — name ${it} by its catalogue key (svc:…), register the entity in the catalogue first, or leave ${orphans.length === 1 ? 'it' : 'them'} out`;
}
