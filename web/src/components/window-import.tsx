import { useRef, useState, type SubmitEvent } from 'react';
import { governanceApi } from '../api/governance-client';
import type { IcsImportAnswer, IcsImportInput } from '../api/governance-types';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { pluralize } from '../lib/format';
import { scopeOf } from '../lib/window-draft';
import { ErrorBanner } from './error-banner';
import { FieldError } from './field-error';
import { ScopeFields, TimeZoneInput, type ScopeDraft } from './window-fields';

type Source = 'url' | 'file';

const counts = ['created', 'updated', 'unchanged', 'removed'] as const satisfies readonly (keyof IcsImportAnswer)[];

// Imports the freezes of an iCalendar feed: its address (fetched by the server), or a file read
// here and sent as text. A re-import of the same feed name updates, adds and removes its windows;
// the answer says how many of each, and why any event was skipped.
export function WindowImport({ onImported }: { onImported: (answer: IcsImportAnswer) => void }) {
  const [source, setSource] = useState<Source>('url');
  const [url, setUrl] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [feed, setFeed] = useState('');
  const [timeZone, setTimeZone] = useState('UTC');
  const [scope, setScope] = useState<ScopeDraft>({ scopeType: 'all', services: '', environments: '', atLeast: 'critical' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);
  const [answer, setAnswer] = useState<IcsImportAnswer | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const clear = (): void => {
    setError(null);
    setField(null);
  };
  const refuse = (message: string, name: string): void => {
    setError(message);
    setField(name);
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setAnswer(null);
    const body: IcsImportInput = {};
    if (source === 'url') {
      if (!/^https?:\/\/\S+$/i.test(url.trim())) return refuse('Give the calendar’s address (http or https).', 'url');
      body.url = url.trim();
    } else if (file === null) return refuse('Choose an .ics file.', 'ics');
    if (source === 'file' && feed.trim() === '') return refuse('Name the feed: importing a file under the same name again updates its windows.', 'feed');
    if (feed.trim() !== '') body.feed = feed.trim();
    if (timeZone.trim() !== '') body.timeZone = timeZone.trim();
    const sc = scopeOf(scope);
    if ('message' in sc) return refuse(sc.message, sc.field);
    if (sc.type !== 'all') body.scope = sc;
    setBusy(true);
    clear();
    try {
      if (file !== null && source === 'file') {
        const text = await file.text();
        if (text.trim() === '') {
          refuse(`${file.name} is empty.`, 'ics');
          return;
        }
        body.ics = text;
      }
      const done = await governanceApi.importWindows(body);
      setAnswer(done);
      onImported(done);
    } catch (caught) {
      setError(errorMessage(caught));
      setField(errorField(caught) ?? (source === 'url' ? 'url' : 'ics'));
    } finally {
      setBusy(false);
    }
  };

  const invalid = (name: string): true | undefined => (fieldMatches(field, name) ? true : undefined);
  const placed = ['url', 'ics', 'feed', 'timeZone', 'scope'];
  const loose = error !== null && !placed.some((n) => fieldMatches(field, n)) ? error : null;

  return (
    <form className="card window-import gov-form" onSubmit={(e) => void submit(e)} noValidate data-testid="window-import">
      <h2>Import iCalendar</h2>
      <p className="muted small">
        Each event becomes a freeze. Importing the same feed again updates what changed, adds what is new and removes what the calendar no longer has.
      </p>
      <ErrorBanner message={loose} testId="window-import-error" />
      <fieldset className="field">
        <legend>From</legend>
        <div className="segmented" data-testid="import-source-choice">
          <span className="segment">
            <input id="ics-source-url" type="radio" name="ics-source" checked={source === 'url'} onChange={() => { setSource('url'); clear(); }} data-testid="ics-source-url" />
            <label htmlFor="ics-source-url">An address</label>
          </span>
          <span className="segment">
            <input id="ics-source-file" type="radio" name="ics-source" checked={source === 'file'} onChange={() => { setSource('file'); clear(); }} data-testid="ics-source-file" />
            <label htmlFor="ics-source-file">A file</label>
          </span>
        </div>
      </fieldset>
      {source === 'url' ? (
        <div className="field">
          <label htmlFor="ics-url">Calendar address (.ics)</label>
          <input id="ics-url" type="text" className="mono-input" maxLength={2000} value={url} placeholder="https://calendar.example.com/freezes.ics" onChange={(e) => { setUrl(e.target.value); clear(); }} aria-invalid={invalid('url')} spellCheck={false} data-testid="ics-url" />
          <span className="muted small">Fetched by the server, through its outbound guard.</span>
          <FieldError field={field} name="url" message={error} />
        </div>
      ) : (
        <div className="field">
          <label htmlFor="ics-file">Calendar file (.ics)</label>
          <input
            id="ics-file"
            ref={fileInput}
            type="file"
            accept=".ics,text/calendar"
            onChange={(e) => { setFile(e.target.files?.[0] ?? null); clear(); }}
            aria-invalid={invalid('ics')}
            data-testid="ics-file"
          />
          {file !== null && <span className="muted small" data-testid="ics-file-name">{file.name} · {pluralize(file.size, 'byte')}</span>}
          <FieldError field={field} name="ics" message={error} />
        </div>
      )}
      <div className="gov-pair">
        <div className="field">
          <label htmlFor="ics-feed">Feed name{source === 'url' ? ' (optional)' : ''}</label>
          <input id="ics-feed" type="text" maxLength={500} value={feed} placeholder={source === 'url' ? 'the address' : 'release-freezes'} onChange={(e) => { setFeed(e.target.value); clear(); }} aria-invalid={invalid('feed')} data-testid="ics-feed" />
          <FieldError field={field} name="feed" message={error} />
        </div>
        <TimeZoneInput id="ics-time-zone" label="Time zone" value={timeZone} onChange={(z) => { setTimeZone(z); clear(); }} field={field} fieldName="timeZone" error={error} hint="For floating times and all-day events when the calendar names no zone." />
      </div>
      <ScopeFields idPrefix="ics" value={scope} onChange={(patch) => { setScope((s) => ({ ...s, ...patch })); clear(); }} field={field} error={error} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="ics-import">
          {busy ? 'Importing…' : 'Import'}
        </button>
      </div>
      {answer !== null && (
        <div className="import-summary" role="status" data-testid="ics-summary">
          <p className="small">
            Imported <span className="mono">{answer.feed}</span>
            {answer.calendarName !== null && <> (“{answer.calendarName}”)</>}:{' '}
            {counts.map((c, i) => (
              <span key={c}>
                {i > 0 && ', '}
                <strong data-testid={`ics-${c}`}>{answer[c]}</strong> {c}
              </span>
            ))}
            , <strong data-testid="ics-skipped">{answer.skipped.length}</strong> skipped.
          </p>
          {answer.skipped.length > 0 && (
            <ul className="ics-skipped" data-testid="ics-skipped-list">
              {answer.skipped.map((s, i) => (
                <li key={`${s.uid ?? ''}:${String(i)}`} data-testid="ics-skipped-event">
                  <strong>{s.name ?? s.uid ?? 'an event'}</strong>: {s.reason}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}
