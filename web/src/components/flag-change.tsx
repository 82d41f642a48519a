import type { FlagRecord } from '../api/types';
import { describeChangeText, describeRecord } from '../lib/flag-format';
import './flag-change.css';

// A record's from → to, readable: "off → on", "rollout 5% → 50%". The text content
// reads the same as describeChangeText so it can be copied or searched.
export function FlagChange({ record }: { record: FlagRecord }) {
  const description = describeRecord(record);
  const title = describeChangeText(record);
  if (description.kind === 'text') {
    return (
      <span className="change change-text" data-testid="flag-change" title={title}>
        {description.text}
      </span>
    );
  }
  return (
    <span className="change" data-testid="flag-change" title={title}>
      {description.parts.map((part, index) => (
        <span className="change-part" key={`${part.label}-${String(index)}`}>
          {index > 0 && <span className="muted">; </span>}
          {part.label !== '' && <span className="change-label">{part.label} </span>}
          <span className="change-from">{part.from}</span>
          {' → '}
          <span className="change-to">{part.to}</span>
        </span>
      ))}
    </span>
  );
}
