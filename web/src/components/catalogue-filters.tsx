import { useEffect, useState, type SubmitEvent } from 'react';
import type { CatalogueView } from '../lib/catalogue';
import { kindOrder } from '../lib/catalogue';
import './catalogue-filters.css';

type Props = {
  view: CatalogueView;
  // Entities per kind across the whole catalogue (meta.kinds); null until the first page.
  kindCounts: Record<string, number> | null;
  onChange: (next: CatalogueView) => void;
};

// Kind chips, hops and the stale toggle apply at once; the search text is a draft until
// submitted, so every keystroke does not hit the server or the history stack. Any change
// starts again at the first page.
export function CatalogueFilters({ view, kindCounts, onChange }: Props) {
  const [draft, setDraft] = useState(view.q);

  // Back/forward or a shared link changes the URL: show what is applied.
  useEffect(() => { setDraft(view.q); }, [view.q]);

  const apply = (patch: Partial<CatalogueView>): void => { onChange({ ...view, ...patch, offset: 0 }); };

  const submit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    apply({ q: draft.trim() });
  };

  const toggleKind = (kind: string): void => {
    const kinds = view.kinds.includes(kind) ? view.kinds.filter((k) => k !== kind) : [...view.kinds, kind];
    apply({ kinds: kindOrder(kinds) });
  };

  const counts = kindCounts ?? {};
  // Every kind the catalogue holds, and any kind the URL asks for even if it holds none.
  const shown = kindOrder([...Object.keys(counts).filter((k) => (counts[k] ?? 0) > 0), ...view.kinds]);
  const everything = Object.values(counts).reduce((sum, n) => sum + n, 0);

  return (
    <form className="filter-bar catalogue-filters" onSubmit={submit} role="search" data-testid="catalogue-filters">
      <div className="kind-chips" role="group" aria-label="Kinds" data-testid="kind-chips">
        <button
          type="button"
          className="chip"
          aria-pressed={view.kinds.length === 0}
          onClick={() => { apply({ kinds: [] }); }}
          data-testid="kind-chip-all"
        >
          all kinds
          {kindCounts !== null && <span className="chip-count">{everything.toLocaleString('en-US')}</span>}
        </button>
        {shown.map((kind) => (
          <button
            key={kind}
            type="button"
            className="chip"
            aria-pressed={view.kinds.includes(kind)}
            onClick={() => { toggleKind(kind); }}
            data-testid="kind-chip"
            data-kind={kind}
          >
            {kind}
            {kindCounts !== null && <span className="chip-count">{(counts[kind] ?? 0).toLocaleString('en-US')}</span>}
          </button>
        ))}
      </div>
      <div className="field field-inline field-wide">
        <label htmlFor="catalogue-q">Search</label>
        <input
          id="catalogue-q"
          type="search"
          value={draft}
          maxLength={200}
          placeholder="part of a name or key"
          onChange={(e) => { setDraft(e.target.value); }}
          spellCheck={false}
          autoComplete="off"
          data-testid="catalogue-q"
        />
      </div>
      <div className="filter-actions">
        <button type="submit" className="btn btn-primary" data-testid="catalogue-search">
          Search
        </button>
        <button
          type="button"
          className="btn"
          disabled={view.q === '' && view.kinds.length === 0}
          onClick={() => { apply({ q: '', kinds: [] }); }}
          data-testid="catalogue-clear"
        >
          Clear
        </button>
      </div>
      <WalkControls idPrefix="catalogue" hops={view.hops} includeStale={view.includeStale} onChange={apply} />
    </form>
  );
}

// Hops and stale call edges: shared by the list and the entity page.
export function WalkControls({
  idPrefix,
  hops,
  includeStale,
  onChange,
}: {
  idPrefix: string;
  hops: 1 | 2;
  includeStale: boolean;
  onChange: (patch: { hops?: 1 | 2; includeStale?: boolean }) => void;
}) {
  return (
    <div className="walk-controls" data-testid={`${idPrefix}-walk`}>
      <fieldset className="segmented">
        <legend className="visually-hidden">Hops</legend>
        {([1, 2] as const).map((n) => (
          <span key={n} className="segment">
            <input
              id={`${idPrefix}-hops-${String(n)}`}
              type="radio"
              name={`${idPrefix}-hops`}
              value={n}
              checked={hops === n}
              onChange={() => { onChange({ hops: n }); }}
              data-testid={`${idPrefix}-hops-${String(n)}`}
            />
            <label htmlFor={`${idPrefix}-hops-${String(n)}`}>{n === 1 ? '1 hop' : '2 hops'}</label>
          </span>
        ))}
      </fieldset>
      <div className="check">
        <input
          id={`${idPrefix}-include-stale`}
          type="checkbox"
          checked={includeStale}
          onChange={(e) => { onChange({ includeStale: e.target.checked }); }}
          data-testid={`${idPrefix}-include-stale`}
        />
        <label htmlFor={`${idPrefix}-include-stale`}>Include stale call edges</label>
      </div>
    </div>
  );
}
