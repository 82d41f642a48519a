import { sentence } from '../lib/format';

/** What a Test button heard, in words. */
export type TestWords = { ok: boolean; message: string };

// What a Test button heard, in words: green when the other side answered as it should.
export function AlertTestResult({ result, testId }: { result: TestWords | { error: string }; testId: string }) {
  if ('error' in result) {
    return (
      <p className="item-test-result field-error small" role="status" data-testid={testId} data-ok="false">
        {sentence(result.error)}
      </p>
    );
  }
  return (
    <p className={result.ok ? 'item-test-result ok-text small' : 'item-test-result field-error small'} role="status" data-testid={testId} data-ok={String(result.ok)}>
      {sentence(result.message)}
    </p>
  );
}
