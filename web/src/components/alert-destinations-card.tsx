import { useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import { destinationKinds, type AlertDestination, type AlertDestinationInput, type DestinationKind } from '../api/types';
import { destinationKindLabels } from '../lib/alert-format';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { formatUtc } from '../lib/format';
import { AlertTestResult, type TestWords } from './alert-test-result';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';
import { SecretBox } from './secret-box';
import { useRowTests } from './use-row-tests';

type Props = { destinations: AlertDestination[]; canEdit: boolean; onChanged: () => void };

type Draft = { kind: DestinationKind; name: string; url: string; to: string; routingKey: string; eventsUrl: string };
const emptyDraft: Draft = { kind: 'webhook', name: '', url: '', to: '', routingKey: '', eventsUrl: '' };

const kindHints: Record<DestinationKind, string> = {
  webhook: 'The Alertmanager webhook shape, signed: changeledger makes the signing secret and shows it once.',
  email: 'A plain e-mail per alert, through the server’s mail settings.',
  slack: 'A Slack (or Slack-compatible) incoming webhook URL.',
  pagerduty: 'PagerDuty Events API v2: the integration’s routing key.',
};

export function destinationBody(d: Draft): AlertDestinationInput {
  const name = d.name.trim();
  switch (d.kind) {
    case 'webhook':
    case 'slack':
      return { kind: d.kind, name, url: d.url.trim() };
    case 'email':
      return { kind: 'email', name, to: d.to.split(/[\s,;]+/).filter((x) => x !== '') };
    case 'pagerduty':
      return { kind: 'pagerduty', name, routingKey: d.routingKey.trim(), ...(d.eventsUrl.trim() === '' ? {} : { eventsUrl: d.eventsUrl.trim() }) };
  }
}

/** What a person recognises a destination by: its host, its recipients, its events URL. */
function describe(d: AlertDestination): string {
  if (d.kind === 'email') return (d.to ?? []).join(', ');
  if (d.kind === 'pagerduty') return d.eventsUrl ?? 'events.pagerduty.com';
  return d.host ?? '';
}

/** How the last send went, in words. */
function lastSend(d: AlertDestination): string | null {
  const l = d.lastDelivery;
  if (l === null) return null;
  if (l.ok) return `Last sent ${formatUtc(l.at)}.`;
  return `Last send failed ${formatUtc(l.at)}${l.error === null ? '' : `: ${l.error}`}${l.nextAttemptAt === null ? '' : ` (next try ${formatUtc(l.nextAttemptAt)})`}.`;
}

const askDestination = async (id: string): Promise<TestWords> => {
  const answer = await api.testAlertDestination(id);
  return { ok: answer.ok, message: answer.message };
};

// Where relay mode forwards the alerts it does not hold, and where a release sends its notices.
export function AlertDestinationsCard({ destinations, canEdit, onChanged }: Props) {
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message: string; field: string | null } | null>(null);
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const { tests, test } = useRowTests(askDestination);
  const [removing, setRemoving] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);

  const set = (patch: Partial<Draft>): void => { setDraft((d) => (d === null ? d : { ...d, ...patch })); };

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (draft === null) return;
    setSaving(true);
    setError(null);
    try {
      const created = await api.createAlertDestination(destinationBody(draft));
      if (created.signingSecret !== null) setSecret({ name: created.destination.name, value: created.signingSecret });
      setDraft(null);
      onChanged();
    } catch (caught) {
      setError({ message: errorMessage(caught), field: errorField(caught) });
    } finally {
      setSaving(false);
    }
  };

  const remove = async (id: string): Promise<void> => {
    setListError(null);
    try {
      await api.removeAlertDestination(id);
      setRemoving(null);
      onChanged();
    } catch (caught) {
      setListError(errorMessage(caught));
    }
  };

  const field = error?.field ?? null;
  const message = error?.message ?? null;
  const known = ['name', 'url', 'to', 'routingKey', 'eventsUrl'];

  return (
    <section className="card settings-card" data-testid="alert-destinations-card" aria-labelledby="alert-destinations-title">
      <div className="section-head">
        <h2 id="alert-destinations-title">Relay destinations</h2>
        {canEdit && draft === null && (
          <button type="button" className="btn btn-small" onClick={() => { setError(null); setDraft(emptyDraft); }} data-testid="destination-add">
            Add a destination
          </button>
        )}
      </div>
      <p className="muted small">
        In relay mode these receive every alert that is not held; in both modes a release sends the still-failing held alerts here once, prefixed with the change.
      </p>
      {secret !== null && (
        <SecretBox
          testId="destination-secret"
          title={<>Signing secret of {secret.name}</>}
          aside="shown once"
          warning="Copy it into your receiver now: changeledger keeps it sealed and never shows it again."
          value={secret.value}
          copyLabel="Copy secret"
          dismissLabel="I have copied it"
          onDismiss={() => { setSecret(null); }}
        />
      )}
      <ErrorBanner message={listError} testId="destinations-error" />
      {destinations.length === 0 && draft === null && (
        <p className="muted small" data-testid="destinations-empty">None yet.</p>
      )}
      <ul className="item-list">
        {destinations.map((d) => {
          const result = tests[d.id];
          return (
            <li key={d.id} className="item-row" data-testid="destination-row" data-id={d.id}>
              <div className="item-main">
                <strong>{d.name}</strong> <span className="pill">{destinationKindLabels[d.kind]}</span>{' '}
                <span className="mono small muted">{d.secretHint ?? describe(d)}</span>
                {!d.enabled && <span className="muted small"> · disabled</span>}
                <div className="muted small" data-testid="destination-last">{lastSend(d) ?? `Added ${formatUtc(d.createdAt)}; nothing sent yet.`}</div>
                {result === 'testing' && <p className="muted small">Sending a test…</p>}
                {result !== undefined && result !== 'testing' && <AlertTestResult result={result} testId="destination-test-result" />}
              </div>
              <div className="item-actions">
                {canEdit && (
                  <button type="button" className="btn btn-small" onClick={() => void test(d.id)} disabled={result === 'testing'} data-testid="destination-test">
                    Test
                  </button>
                )}
                {canEdit &&
                  (removing === d.id ? (
                    <button type="button" className="btn btn-small btn-danger" onClick={() => void remove(d.id)} data-testid="destination-remove-confirm">
                      Remove it
                    </button>
                  ) : (
                    <button type="button" className="btn btn-small btn-danger-outline" onClick={() => { setRemoving(d.id); }} data-testid="destination-remove">
                      Remove
                    </button>
                  ))}
              </div>
            </li>
          );
        })}
      </ul>
      {draft !== null && (
        <form className="item-form" onSubmit={(e) => void submit(e)} data-testid="destination-form">
          <h3>New destination</h3>
          <div className="field">
            <label htmlFor="dest-kind">Kind</label>
            <select id="dest-kind" value={draft.kind} onChange={(e) => { set({ kind: e.target.value as DestinationKind }); }} data-testid="destination-kind-input">
              {destinationKinds.map((k) => (
                <option key={k} value={k}>
                  {destinationKindLabels[k]}
                </option>
              ))}
            </select>
            <span className="muted small">{kindHints[draft.kind]}</span>
          </div>
          <div className="field">
            <label htmlFor="dest-name">Name</label>
            <input id="dest-name" type="text" value={draft.name} onChange={(e) => { set({ name: e.target.value }); }} aria-invalid={fieldMatches(field, 'name')} data-testid="destination-name-input" />
            <FieldError field={field} name="name" message={message} />
          </div>
          {(draft.kind === 'webhook' || draft.kind === 'slack') && (
            <div className="field">
              <label htmlFor="dest-url">{draft.kind === 'slack' ? 'Incoming webhook URL' : 'URL'}</label>
              <input id="dest-url" type="text" className="mono-input" placeholder="https://" value={draft.url} onChange={(e) => { set({ url: e.target.value }); }} aria-invalid={fieldMatches(field, 'url')} data-testid="destination-url-input" />
              <FieldError field={field} name="url" message={message} />
            </div>
          )}
          {draft.kind === 'email' && (
            <div className="field">
              <label htmlFor="dest-to">Recipients</label>
              <input id="dest-to" type="text" placeholder="oncall@example.com, ops@example.com" value={draft.to} onChange={(e) => { set({ to: e.target.value }); }} aria-invalid={fieldMatches(field, 'to')} data-testid="destination-to-input" />
              <FieldError field={field} name="to" message={message} />
            </div>
          )}
          {draft.kind === 'pagerduty' && (
            <>
              <div className="field">
                <label htmlFor="dest-key">Routing key</label>
                <input id="dest-key" type="password" autoComplete="off" value={draft.routingKey} onChange={(e) => { set({ routingKey: e.target.value }); }} aria-invalid={fieldMatches(field, 'routingKey')} data-testid="destination-key-input" />
                <FieldError field={field} name="routingKey" message={message} />
              </div>
              <div className="field">
                <label htmlFor="dest-events">Events URL (optional)</label>
                <input id="dest-events" type="text" className="mono-input" placeholder="https://events.pagerduty.com/v2/enqueue" value={draft.eventsUrl} onChange={(e) => { set({ eventsUrl: e.target.value }); }} aria-invalid={fieldMatches(field, 'eventsUrl')} data-testid="destination-events-input" />
                <FieldError field={field} name="eventsUrl" message={message} />
              </div>
            </>
          )}
          {error !== null && !known.some((k) => fieldMatches(field, k)) && <ErrorBanner message={error.message} testId="destination-form-error" />}
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={saving} data-testid="destination-save">
              {saving ? 'Saving…' : 'Add'}
            </button>
            <button type="button" className="btn" onClick={() => { setDraft(null); }} data-testid="destination-cancel">
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
