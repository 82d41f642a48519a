import { useState, type SubmitEvent } from 'react';
import { governanceApi } from '../api/governance-client';
import { windowKinds } from '../api/governance-types';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { browserTimeZone, windowKindHints, windowKindLabels } from '../lib/governance-format';
import { emptyWindowDraft, windowInputOf, type WindowDraft } from '../lib/window-draft';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';
import { ScopeFields, TimeZoneInput } from './window-fields';

type Props = { onAdded: (text: string) => void };

// Adds a change or freeze window (owners and admins): a recurring rule in a time zone, or a
// one-off span in UTC, and the changes it applies to. The server checks the rule and the zone
// and names the field it refuses; the message shows under it.
export function WindowForm({ onAdded }: Props) {
  const [draft, setDraft] = useState<WindowDraft>(() => emptyWindowDraft(browserTimeZone(), new Date()));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);

  const set = (patch: Partial<WindowDraft>): void => {
    setDraft((d) => ({ ...d, ...patch }));
    setError(null);
    setField(null);
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const input = windowInputOf(draft);
    if ('message' in input) {
      setError(input.message);
      setField(input.field);
      return;
    }
    setBusy(true);
    setError(null);
    setField(null);
    try {
      const made = await governanceApi.createWindow(input);
      setDraft(emptyWindowDraft(draft.timeZone, new Date()));
      onAdded(`Added the ${made.kind === 'freeze' ? 'freeze' : 'change window'} “${made.name}”.`);
    } catch (caught) {
      setError(errorMessage(caught));
      setField(errorField(caught));
    } finally {
      setBusy(false);
    }
  };

  const invalid = (name: string): true | undefined => (fieldMatches(field, name) ? true : undefined);
  const placed = ['name', 'kind', 'description', 'schedule.rrule', 'schedule.start', 'schedule.end', 'schedule.durationMinutes', 'schedule.timeZone', 'schedule.exdates', 'scope'];
  const loose = error !== null && !placed.some((n) => fieldMatches(field, n)) ? error : null;

  return (
    <form className="card window-form gov-form" onSubmit={(e) => void submit(e)} noValidate data-testid="window-form">
      <h2>Add a window</h2>
      <ErrorBanner message={loose} testId="window-form-error" />
      <div className="gov-pair">
        <div className="field">
          <label htmlFor="window-name">Name</label>
          <input id="window-name" type="text" maxLength={200} value={draft.name} placeholder="Weekend freeze" onChange={(e) => { set({ name: e.target.value }); }} aria-invalid={invalid('name')} data-testid="window-name" />
          <FieldError field={field} name="name" message={error} />
        </div>
        <fieldset className="field">
          <legend>Kind</legend>
          <div className="segmented" data-testid="window-kind-choice">
            {windowKinds.map((k) => (
              <span key={k} className="segment">
                <input id={`window-kind-${k}`} type="radio" name="window-kind" checked={draft.kind === k} onChange={() => { set({ kind: k }); }} data-testid={`window-kind-${k}`} />
                <label htmlFor={`window-kind-${k}`}>{windowKindLabels[k]}</label>
              </span>
            ))}
          </div>
          <span className="muted small">{windowKindHints[draft.kind]}</span>
          <FieldError field={field} name="kind" message={error} />
        </fieldset>
      </div>

      <fieldset className="field">
        <legend>Schedule</legend>
        <div className="segmented" data-testid="window-schedule-choice">
          <span className="segment">
            <input id="window-schedule-rrule" type="radio" name="window-schedule" checked={draft.scheduleType === 'rrule'} onChange={() => { set({ scheduleType: 'rrule' }); }} data-testid="window-schedule-rrule" />
            <label htmlFor="window-schedule-rrule">Recurring</label>
          </span>
          <span className="segment">
            <input id="window-schedule-once" type="radio" name="window-schedule" checked={draft.scheduleType === 'once'} onChange={() => { set({ scheduleType: 'once' }); }} data-testid="window-schedule-once" />
            <label htmlFor="window-schedule-once">One-off</label>
          </span>
        </div>
      </fieldset>
      {draft.scheduleType === 'rrule' ? (
        <>
          <div className="field">
            <label htmlFor="window-rrule">Repeat rule (RRULE)</label>
            <input id="window-rrule" type="text" className="mono-input" maxLength={500} value={draft.rrule} placeholder="FREQ=WEEKLY;BYDAY=SA,SU" onChange={(e) => { set({ rrule: e.target.value }); }} aria-invalid={invalid('schedule.rrule')} spellCheck={false} data-testid="window-rrule" />
            <span className="muted small">RFC 5545, e.g. FREQ=WEEKLY;BYDAY=FR or FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=6.</span>
            <FieldError field={field} name="schedule.rrule" message={error} />
          </div>
          <div className="gov-pair">
            <div className="field">
              <label htmlFor="window-local-start">First start (local time)</label>
              <input id="window-local-start" type="datetime-local" value={draft.localStart} onChange={(e) => { set({ localStart: e.target.value }); }} aria-invalid={invalid('schedule.start')} data-testid="window-local-start" />
              <FieldError field={field} name="schedule.start" message={error} />
            </div>
            <div className="field">
              <label htmlFor="window-duration">Duration (minutes)</label>
              <input id="window-duration" type="number" min={1} max={10080} value={draft.durationMinutes} onChange={(e) => { set({ durationMinutes: e.target.value }); }} aria-invalid={invalid('schedule.durationMinutes')} data-testid="window-duration" />
              <span className="muted small">1 – 10080 (7 days).</span>
              <FieldError field={field} name="schedule.durationMinutes" message={error} />
            </div>
          </div>
          <div className="gov-pair">
            <TimeZoneInput id="window-time-zone" label="Time zone" value={draft.timeZone} onChange={(timeZone) => { set({ timeZone }); }} field={field} fieldName="schedule.timeZone" error={error} hint="The start’s zone: the window follows its daylight saving." />
            <div className="field">
              <label htmlFor="window-exdates">Skip these starts (optional)</label>
              <textarea id="window-exdates" className="mono-input" rows={2} value={draft.exdates} placeholder="YYYY-MM-DDTHH:MM" onChange={(e) => { set({ exdates: e.target.value }); }} aria-invalid={invalid('schedule.exdates')} spellCheck={false} data-testid="window-exdates" />
              <span className="muted small">Local starts of occurrences to leave out, one a line.</span>
              <FieldError field={field} name="schedule.exdates" message={error} />
            </div>
          </div>
        </>
      ) : (
        <div className="gov-pair">
          <div className="field">
            <label htmlFor="window-once-start">Start (UTC)</label>
            <input id="window-once-start" type="datetime-local" value={draft.onceStart} onChange={(e) => { set({ onceStart: e.target.value }); }} aria-invalid={invalid('schedule.start')} data-testid="window-once-start" />
            <FieldError field={field} name="schedule.start" message={error} />
          </div>
          <div className="field">
            <label htmlFor="window-once-end">End (UTC)</label>
            <input id="window-once-end" type="datetime-local" value={draft.onceEnd} onChange={(e) => { set({ onceEnd: e.target.value }); }} aria-invalid={invalid('schedule.end')} data-testid="window-once-end" />
            <span className="muted small">At most 90 days after the start.</span>
            <FieldError field={field} name="schedule.end" message={error} />
          </div>
        </div>
      )}

      <ScopeFields
        idPrefix="window"
        value={draft}
        onChange={(patch) => { set(patch); }}
        field={field}
        error={error}
      />
      <div className="field">
        <label htmlFor="window-description">Description (optional)</label>
        <input id="window-description" type="text" maxLength={2000} value={draft.description} placeholder="Quarter-end close" onChange={(e) => { set({ description: e.target.value }); }} aria-invalid={invalid('description')} data-testid="window-description" />
        <FieldError field={field} name="description" message={error} />
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="window-add">
          {busy ? 'Adding…' : draft.kind === 'freeze' ? 'Add the freeze' : 'Add the change window'}
        </button>
      </div>
    </form>
  );
}
