import { fieldMatches } from '../lib/errors';
import { isoToUtcInput } from '../lib/change-format';
import { FieldError } from './field-error';
import './change-window-fields.css';

// When the change runs: now, a window of its own, or a pipeline's duration (the window is
// stamped now … now + d, and again when the change starts).
export type WindowMode = 'now' | 'window' | 'pipeline';

export type WindowDraft = {
  mode: WindowMode;
  start: string;
  end: string;
  nowMinutes: string;
  maxDuration: string;
  autoStart: boolean;
};

export function defaultWindow(now: Date): WindowDraft {
  // The next quarter hour, for an hour: a sensible first window to edit.
  const start = new Date(Math.ceil(now.getTime() / 900_000) * 900_000);
  return {
    mode: 'now',
    start: isoToUtcInput(start),
    end: isoToUtcInput(new Date(start.getTime() + 3_600_000)),
    nowMinutes: '60',
    maxDuration: '30',
    autoStart: false,
  };
}

const modes: readonly { id: WindowMode; label: string; hint: string }[] = [
  { id: 'now', label: 'Start now', hint: 'The window opens when the change may start (at once without approval).' },
  { id: 'window', label: 'A window', hint: 'A planned window, in UTC: 5 minutes to 7 days.' },
  { id: 'pipeline', label: 'A pipeline duration', hint: 'The window is now … now + the duration, stamped again when the change starts.' },
];

type Props = { draft: WindowDraft; onChange: (draft: WindowDraft) => void; field: string | null; error: string | null };

export function ChangeWindowFields({ draft, onChange, field, error }: Props) {
  const set = (patch: Partial<WindowDraft>): void => { onChange({ ...draft, ...patch }); };
  const hint = modes.find((m) => m.id === draft.mode)?.hint ?? '';
  const invalid = (name: string): true | undefined => (fieldMatches(field, name) ? true : undefined);

  return (
    <div className="change-window" data-testid="change-window-fields">
      <fieldset className="field">
        <legend>Window</legend>
        <div className="segmented" data-testid="window-mode">
          {modes.map((m) => (
            <span key={m.id} className="segment">
              <input
                id={`window-mode-${m.id}`}
                type="radio"
                name="window-mode"
                checked={draft.mode === m.id}
                onChange={() => { set({ mode: m.id }); }}
                data-testid={`window-mode-${m.id}`}
              />
              <label htmlFor={`window-mode-${m.id}`}>{m.label}</label>
            </span>
          ))}
        </div>
        <span className="muted small">{hint}</span>
      </fieldset>
      {draft.mode === 'now' && (
        <div className="field field-short">
          <label htmlFor="window-now-minutes">Lasting (minutes)</label>
          <input
            id="window-now-minutes"
            type="number"
            min={5}
            max={10080}
            value={draft.nowMinutes}
            onChange={(e) => { set({ nowMinutes: e.target.value }); }}
            aria-invalid={invalid('windowEnd')}
            data-testid="window-now-minutes"
          />
          <FieldError field={field} name="windowEnd" message={error} />
        </div>
      )}
      {draft.mode === 'window' && (
        <div className="field-pair">
          <div className="field">
            <label htmlFor="window-start">Start (UTC)</label>
            <input
              id="window-start"
              type="datetime-local"
              value={draft.start}
              onChange={(e) => { set({ start: e.target.value }); }}
              aria-invalid={invalid('windowStart')}
              data-testid="window-start"
            />
            <FieldError field={field} name="windowStart" message={error} />
          </div>
          <div className="field">
            <label htmlFor="window-end">End (UTC)</label>
            <input
              id="window-end"
              type="datetime-local"
              value={draft.end}
              onChange={(e) => { set({ end: e.target.value }); }}
              aria-invalid={invalid('windowEnd')}
              data-testid="window-end"
            />
            <FieldError field={field} name="windowEnd" message={error} />
          </div>
        </div>
      )}
      {draft.mode === 'pipeline' && (
        <div className="field-pair">
          <div className="field field-short">
            <label htmlFor="window-max-duration">Duration (minutes)</label>
            <input
              id="window-max-duration"
              type="number"
              min={5}
              max={10080}
              value={draft.maxDuration}
              onChange={(e) => { set({ maxDuration: e.target.value }); }}
              aria-invalid={invalid('maxDurationMinutes')}
              data-testid="window-max-duration"
            />
            <FieldError field={field} name="maxDurationMinutes" message={error} />
          </div>
          <span className="check check-field">
            <input
              id="window-auto-start"
              type="checkbox"
              checked={draft.autoStart}
              onChange={(e) => { set({ autoStart: e.target.checked }); }}
              data-testid="window-auto-start"
            />
            <label htmlFor="window-auto-start">Start the moment it is approved</label>
          </span>
        </div>
      )}
    </div>
  );
}
