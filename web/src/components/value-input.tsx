import type { FlagType } from '../api/types';

type Props = {
  id: string;
  type: FlagType;
  text: string;
  onText: (text: string) => void;
  invalid?: boolean;
  testId?: string;
  compact?: boolean;
  describedBy?: string;
};

// One input per flag type; the caller owns the <label htmlFor={id}>.
export function ValueInput({ id, type, text, onText, invalid, testId, compact = false, describedBy }: Props) {
  const common = {
    id,
    'aria-invalid': invalid === true ? true : undefined,
    'aria-describedby': describedBy,
    'data-testid': testId,
  };
  switch (type) {
    case 'boolean':
      return (
        <select {...common} value={text} onChange={(e) => { onText(e.target.value); }}>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
    case 'number':
      return (
        <input
          {...common}
          type="number"
          className="mono-input input-number"
          value={text}
          onChange={(e) => { onText(e.target.value); }}
        />
      );
    case 'string':
      return (
        <input
          {...common}
          type="text"
          className="mono-input"
          value={text}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => { onText(e.target.value); }}
        />
      );
    case 'json':
      return compact ? (
        <input
          {...common}
          type="text"
          className="mono-input"
          value={text}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => { onText(e.target.value); }}
        />
      ) : (
        <textarea
          {...common}
          className="mono-input"
          rows={4}
          value={text}
          spellCheck={false}
          onChange={(e) => { onText(e.target.value); }}
        />
      );
  }
}
