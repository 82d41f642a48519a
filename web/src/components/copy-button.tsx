import { useEffect, useState } from 'react';

type CopyState = 'idle' | 'copied' | 'failed';

async function copyText(value: string): Promise<void> {
  // The async clipboard API only exists in secure contexts; a self-hosted instance on
  // plain http gets the "copy manually" hint instead (values are user-select: all).
  if (!window.isSecureContext) throw new Error('clipboard unavailable over http');
  await navigator.clipboard.writeText(value);
}

export function CopyButton({ value, label = 'Copy', testId }: { value: string; label?: string; testId?: string }) {
  const [state, setState] = useState<CopyState>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = window.setTimeout(() => { setState('idle'); }, 2000);
    return () => { window.clearTimeout(timer); };
  }, [state]);

  const copy = async (): Promise<void> => {
    try {
      await copyText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <button type="button" className="btn btn-small" onClick={() => void copy()} data-testid={testId}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select the text and copy it manually' : label}
    </button>
  );
}
