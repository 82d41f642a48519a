import { useCallback, useState } from 'react';
import { errorMessage } from '../lib/errors';
import type { TestWords } from './alert-test-result';

/** What a row's Test button shows: asking, the answer in words, or why it could not ask. */
export type RowTest = TestWords | { error: string } | 'testing';

/**
 * The Test buttons of a list (Alertmanagers, alert destinations, evidence sources): one answer per
 * row id, "testing" while it asks. `ask` says the answer in words; a refusal shows as an error.
 */
export function useRowTests(ask: (id: string) => Promise<TestWords>): { tests: Record<string, RowTest>; test: (id: string) => Promise<void> } {
  const [tests, setTests] = useState<Record<string, RowTest>>({});
  const test = useCallback(async (id: string): Promise<void> => {
    setTests((t) => ({ ...t, [id]: 'testing' }));
    try {
      const words = await ask(id);
      setTests((t) => ({ ...t, [id]: words }));
    } catch (caught) {
      setTests((t) => ({ ...t, [id]: { error: errorMessage(caught) } }));
    }
  }, [ask]);
  return { tests, test };
}
