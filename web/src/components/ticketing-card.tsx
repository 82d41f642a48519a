import { useEffect, useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import type { ChangeSettingsPatch, ChangeSettingsView, TicketTest } from '../api/types';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import {
  secretField,
  secretNoun,
  ticketingChoices,
  ticketingDraft,
  ticketingInput,
  ticketingLabels,
  ticketingPart,
  type TicketingDraft,
} from '../lib/ticketing';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';
import { TicketingFields } from './ticketing-fields';
import './ticketing-card.css';

type Props = { orgId: string; view: ChangeSettingsView; onSaved: (view: ChangeSettingsView) => void };

// The fields the card places under an input; any other error goes in the banner on top.
function placed(draft: TicketingDraft, field: string | null): boolean {
  if (field === null) return false;
  if (fieldMatches(field, 'allowPrivateCallbacks') || field === 'ticketing.kind') return true;
  if (draft.kind === 'none' || !field.startsWith('ticketing.')) return false;
  return field.slice('ticketing.'.length).split('.')[0]! in draft[draft.kind];
}

// Settings → Change approvals: where each change's ticket goes (one destination, or none),
// with a probe of the form as it stands (nothing saved), and whether callbacks and tickets may
// reach private addresses.
export function TicketingCard({ orgId, view, onSaved }: Props) {
  const { settings } = view;
  const stored = settings.ticketing;
  const initial = JSON.stringify(ticketingDraft(stored, settings.allowPrivateCallbacks));
  const [draft, setDraft] = useState<TicketingDraft>(() => JSON.parse(initial) as TicketingDraft);
  const [busy, setBusy] = useState<'save' | 'test' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [test, setTest] = useState<TicketTest | null>(null);

  // Back to what is stored whenever that changes (a save here, or elsewhere on the page that
  // answered other settings leaves this draft alone).
  useEffect(() => { setDraft(JSON.parse(initial) as TicketingDraft); }, [initial]);

  const update = (patch: Partial<TicketingDraft>): void => {
    setDraft((d) => ({ ...d, ...patch }));
    setSaved(false);
    setTest(null);
  };

  const fail = (caught: unknown): void => {
    setError(errorMessage(caught));
    setField(errorField(caught));
  };

  const build = () => {
    const built = ticketingInput(draft);
    if (!built.ok) {
      setError(built.error);
      setField(built.field);
      return null;
    }
    setError(null);
    setField(null);
    return built.input;
  };

  const save = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const input = build();
    if (input === null) return;
    const patch: ChangeSettingsPatch = { allowPrivateCallbacks: draft.allowPrivateCallbacks };
    // An untouched destination is not sent: its stored secret may be one this server can no
    // longer open, and the private-address switch alone must still save.
    if (ticketingPart(draft) !== ticketingPart(JSON.parse(initial) as TicketingDraft)) patch.ticketing = input;
    setBusy('save');
    setSaved(false);
    try {
      onSaved(await api.updateChangeSettings(orgId, patch));
      setSaved(true);
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(null);
    }
  };

  const probe = async (): Promise<void> => {
    const input = build();
    if (input === null) return;
    setBusy('test');
    setTest(null);
    setSaved(false);
    try {
      setTest(await api.testTicketing(orgId, { ticketing: input, allowPrivateCallbacks: draft.allowPrivateCallbacks }));
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(null);
    }
  };

  const sameKind = stored !== null && draft.kind === stored.kind;
  const errors = { error, field, hasSecret: sameKind && stored.hasSecret };
  const loose = error !== null && !placed(draft, field) ? error : null;

  return (
    <form className="card ticketing-card" onSubmit={(e) => void save(e)} noValidate data-testid="ticketing-card" data-stored-kind={settings.ticketingKind}>
      <div className="section-head">
        <h2>Ticket destination</h2>
        <span className="muted small" data-testid="ticketing-stored">
          {stored === null ? 'none stored' : `${ticketingLabels[stored.kind]} stored`}
        </span>
      </div>
      <p className="muted small ticketing-lede">
        Each change gets one ticket: opened when it is approved (or when it starts, if it needed no approval), then updated as it
        starts, completes and is reported.
      </p>
      {settings.ticketingUnreadable && stored !== null && (
        <div className="banner banner-warn" role="status" data-testid="ticketing-unreadable">
          <span className="banner-text">
            The stored {ticketingLabels[stored.kind]} {secretNoun[stored.kind]} cannot be opened with this server’s data key (was the key
            replaced?): enter it again and save. Until then no ticket step goes out.
          </span>
        </div>
      )}
      <ErrorBanner message={loose} testId="ticketing-error" />
      {saved && (
        <div className="banner banner-ok" role="status" data-testid="ticketing-saved">
          <span className="banner-text">Saved.</span>
        </div>
      )}
      <fieldset className="field">
        <legend>Send tickets to</legend>
        <div className="segmented" data-testid="ticketing-kind">
          {ticketingChoices.map((k) => (
            <span key={k} className="segment">
              <input id={`ticketing-kind-${k}`} type="radio" name="ticketing-kind" checked={draft.kind === k} onChange={() => { update({ kind: k }); }} data-testid={`ticketing-kind-${k}`} />
              <label htmlFor={`ticketing-kind-${k}`}>{ticketingLabels[k]}</label>
            </span>
          ))}
        </div>
        {draft.kind === 'none' && <span className="muted small">No tickets are opened.</span>}
        {stored !== null && draft.kind !== stored.kind && draft.kind !== 'none' && (
          <span className="muted small" data-testid="ticketing-replace">
            Saving replaces the stored {ticketingLabels[stored.kind]} destination; enter the {secretNoun[draft.kind]} of this one.
          </span>
        )}
        <FieldError field={field} name="ticketing.kind" message={error} />
      </fieldset>
      {draft.kind !== 'none' && (
        <div className="settings-grid" data-testid={`ticketing-fields-${draft.kind}`} data-secret-field={secretField[draft.kind]}>
          <TicketingFields draft={draft} update={update} errors={errors} />
        </div>
      )}
      <div className="field ticketing-private">
        <span className="check">
          <input id="settings-private-callbacks" type="checkbox" checked={draft.allowPrivateCallbacks} onChange={(e) => { update({ allowPrivateCallbacks: e.target.checked }); }} data-testid="settings-private-callbacks" />
          <label htmlFor="settings-private-callbacks">Allow callbacks and tickets to private addresses</label>
        </span>
        <span className="muted small">
          Lets pipeline callbacks and ticket steps reach private networks (RFC 1918, CGNAT 100.64/10, IPv6 unique-local fc00::/7), for
          a Jira or a bridge inside your network. Loopback, link-local and cloud metadata addresses stay refused.
        </span>
        <FieldError field={field} name="allowPrivateCallbacks" message={error} />
      </div>
      {test !== null && <TestResult test={test} />}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy !== null} data-testid="ticketing-save">
          {busy === 'save' ? 'Saving…' : 'Save destination'}
        </button>
        <button
          type="button"
          className="btn"
          disabled={busy !== null || draft.kind === 'none'}
          title={draft.kind === 'none' ? 'Pick a destination to test' : 'Probe the form as it stands; nothing is saved'}
          onClick={() => void probe()}
          data-testid="ticketing-test"
        >
          {busy === 'test' ? 'Testing…' : 'Test'}
        </button>
      </div>
    </form>
  );
}

function TestResult({ test }: { test: TicketTest }) {
  return (
    <div className="ticketing-test" data-testid="ticketing-test-result" data-ok={test.ok}>
      <div className={test.ok ? 'banner banner-ok' : 'banner banner-error'} role="status">
        <span className="banner-text" data-testid="ticketing-test-message">
          {test.message}
        </span>
      </div>
      <table className="data-table probe-steps">
        <tbody>
          {test.steps.map((s, i) => (
            <tr key={`${String(i)}-${s.name}`} data-testid="ticketing-test-step" data-ok={s.ok}>
              <td className={s.ok ? 'probe-mark ok-text' : 'probe-mark field-error'} aria-label={s.ok ? 'passed' : 'failed'}>
                {s.ok ? '✓' : '✗'}
              </td>
              <td className="probe-name">{s.name}</td>
              <td className="mono probe-status" data-testid="ticketing-test-status">
                {s.status === null ? '—' : `HTTP ${String(s.status)}`}
              </td>
              <td className="probe-detail">{s.detail ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
