import { useEffect, useState } from 'react';
import { ApiError, api } from '../api/client';
import type { Change, EntityRef, MappingEntry, UnresolvedComponent } from '../api/types';
import { errorMessage, isAbort } from '../lib/errors';
import { pluralize } from '../lib/format';
import { KindBadge } from './catalogue-badges';
import { ErrorBanner } from './error-banner';
import './mapping-panel.css';

// svc:<slug>, as the server names a manual service made from a name.
export function manualServiceKey(name: string): string | null {
  const slug = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100);
  return slug === '' ? null : `svc:${slug}`;
}

type Choice = { to: EntityRef } | { create: true } | null;

type Props = { change: Change; canMap: boolean; onMapped: (text: string) => void };

// The names a pipeline gave that the catalogue does not know: for each, its candidates, a
// search of the catalogue, or a new manual service; "Remember this name" saves an alias so
// the next run matches by itself. Nothing left → the blast radius is taken and it moves on.
export function MappingPanel({ change, canMap, onMapped }: Props) {
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [remember, setRemember] = useState<Record<string, boolean>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);

  const entries: MappingEntry[] = change.unresolved.flatMap((u): MappingEntry[] => {
    const choice = choices[u.query] ?? null;
    const keep = remember[u.query] ?? true;
    if (choice === null) return [];
    if ('create' in choice) return [{ input: u.query, createService: { name: u.query }, remember: keep }];
    return [{ input: u.query, key: choice.to.key, kind: choice.to.kind, remember: keep }];
  });

  const map = async (confirmLarge: boolean): Promise<void> => {
    setBusy(true);
    setError(null);
    setConfirm(null);
    try {
      const answer = await api.mapChange(change.id, entries, confirmLarge);
      onMapped(answer.remaining === 0 ? `Every component is mapped: the change is ${answer.status.replace('_', ' ')}.` : `Mapped; ${pluralize(answer.remaining, 'name')} left to map.`);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 409 && caught.details['needsConfirm'] === true) setConfirm(caught.message);
      else setError(errorMessage(caught));
      setBusy(false);
    }
  };

  return (
    <section className="card mapping-panel" data-testid="mapping-panel">
      <h2>Map the unrecognised components</h2>
      <p className="muted small">
        The pipeline named {change.unresolved.length === 1 ? 'a component' : 'components'} the catalogue does not know. Map each to a catalogue
        entity or a new service; the change then goes on to approval.
      </p>
      <ErrorBanner message={error} testId="mapping-error" />
      {change.unresolved.map((u) => (
        <MappingRow
          key={u.query}
          unresolved={u}
          choice={choices[u.query] ?? null}
          remember={remember[u.query] ?? true}
          disabled={!canMap || busy}
          onChoice={(c) => { setChoices({ ...choices, [u.query]: c }); }}
          onRemember={(r) => { setRemember({ ...remember, [u.query]: r }); }}
        />
      ))}
      {confirm !== null && (
        <div className="banner banner-warn" role="alert" data-testid="mapping-confirm">
          <span className="banner-text">{confirm}</span>
          <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={() => void map(true)}>
            Map and confirm the large change
          </button>
        </div>
      )}
      {canMap ? (
        <button type="button" className="btn btn-primary" disabled={busy || entries.length === 0} onClick={() => void map(false)} data-testid="mapping-save">
          {busy ? 'Mapping…' : `Map ${pluralize(entries.length, 'name')}`}
        </button>
      ) : (
        <p className="muted small">Mapping needs write access to the change or being an approver.</p>
      )}
    </section>
  );
}

type RowProps = {
  unresolved: UnresolvedComponent;
  choice: Choice;
  remember: boolean;
  disabled: boolean;
  onChoice: (choice: Choice) => void;
  onRemember: (remember: boolean) => void;
};

function MappingRow({ unresolved, choice, remember, disabled, onChoice, onRemember }: RowProps) {
  const [q, setQ] = useState('');
  const [found, setFound] = useState<EntityRef[]>([]);
  const [searchError, setSearchError] = useState<string | null>(null);
  const id = `map-${unresolved.query.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
  const created = manualServiceKey(unresolved.query);

  useEffect(() => {
    const text = q.trim();
    if (text === '') {
      setFound([]);
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      api.catalogueInventory({ kinds: [], q: text, hops: 1, includeStale: false }, 0, 10, abort.signal).then(
        (page) => {
          if (!abort.signal.aborted) {
            setFound(page.entities.map(({ key, kind, name }) => ({ key, kind, name })));
            setSearchError(null);
          }
        },
        (caught: unknown) => {
          if (!abort.signal.aborted && !isAbort(caught)) setSearchError(errorMessage(caught));
        },
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [q]);

  const isChosen = (key: string): boolean => choice !== null && 'to' in choice && choice.to.key === key;
  const chip = (c: EntityRef, testId: string) => (
    <button
      key={c.key}
      type="button"
      className="chip candidate-chip"
      aria-pressed={isChosen(c.key)}
      disabled={disabled}
      onClick={() => { onChoice(isChosen(c.key) ? null : { to: c }); }}
      data-testid={testId}
      data-key={c.key}
    >
      <KindBadge kind={c.kind} /> {c.name} <span className="mono candidate-key">{c.key}</span>
    </button>
  );

  return (
    <div className="mapping-row" data-testid="mapping-row" data-query={unresolved.query}>
      <div className="mapping-name">
        <span className="mono strong">{unresolved.query}</span>
        {choice !== null && (
          <span className="small" data-testid="mapping-choice">
            → {'create' in choice ? `new service ${created ?? ''}` : choice.to.key}
          </span>
        )}
      </div>
      {unresolved.candidates.length === 0 && (
        <p className="muted small mapping-no-candidate" data-testid="mapping-no-candidate">
          Nothing in the catalogue is called that. Search the catalogue for it below, create a service for it, or register the entity in the
          catalogue (Catalogue → Import) and map it then.
        </p>
      )}
      <span className="candidates">
        {unresolved.candidates.map((c) => chip(c, 'mapping-candidate'))}
        {created !== null && (
          <button
            type="button"
            className="chip"
            aria-pressed={choice !== null && 'create' in choice}
            disabled={disabled}
            onClick={() => { onChoice(choice !== null && 'create' in choice ? null : { create: true }); }}
            data-testid="mapping-create"
          >
            Create service <span className="mono">{created}</span>
          </button>
        )}
      </span>
      <div className="mapping-search">
        <label htmlFor={`${id}-search`} className="visually-hidden">
          Search the catalogue for {unresolved.query}
        </label>
        <input
          id={`${id}-search`}
          type="search"
          value={q}
          placeholder="Search the catalogue…"
          disabled={disabled}
          onChange={(e) => { setQ(e.target.value); }}
          data-testid="mapping-search"
        />
        <span className="check">
          <input id={`${id}-remember`} type="checkbox" checked={remember} disabled={disabled} onChange={(e) => { onRemember(e.target.checked); }} data-testid="mapping-remember" />
          <label htmlFor={`${id}-remember`}>Remember this name</label>
        </span>
      </div>
      {searchError !== null && <span className="field-error small">{searchError}</span>}
      {found.length > 0 && <span className="candidates">{found.map((c) => chip(c, 'mapping-found'))}</span>}
    </div>
  );
}
