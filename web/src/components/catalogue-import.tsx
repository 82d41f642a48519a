import { useRef, useState, type SubmitEvent } from 'react';
import { api } from '../api/client';
import {
  catalogueImportFormats,
  type CatalogueImportFormat,
  type CatalogueImportSummary,
  type ImportCounts,
} from '../api/types';
import { errorField, errorMessage } from '../lib/errors';
import { pluralize } from '../lib/format';
import { ErrorBanner } from './error-banner';
import './catalogue-import.css';

type Props = {
  onImported: (summary: CatalogueImportSummary) => void;
  onClose: () => void;
};

const formatLabels: Record<CatalogueImportFormat, string> = {
  changeledger: 'changeledger catalogue (YAML or JSON)',
  backstage: 'Backstage catalog-info.yaml (one or more documents)',
  kubernetes: 'Kubernetes (kubectl get -o json / yaml)',
  jaeger: 'Jaeger /api/dependencies answer',
  otlp: 'OpenTelemetry traces (OTLP JSON, or JSON lines)',
};

const sourcePattern = /^[\w.:@/-]{1,100}$/;

// Imports are idempotent: the same file twice changes nothing, and what a source reported
// before but no longer does is marked stale (kept, not deleted). A file is read in the
// browser and sent as is; pasting is the same without the file.
export function CatalogueImport({ onImported, onClose }: Props) {
  const [format, setFormat] = useState<CatalogueImportFormat>('changeledger');
  const [source, setSource] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [pasted, setPasted] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);
  const [summary, setSummary] = useState<CatalogueImportSummary | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const clearFile = (): void => {
    setFile(null);
    if (fileInput.current !== null) fileInput.current.value = '';
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setSummary(null);
    const name = source.trim();
    if (name !== '' && !sourcePattern.test(name)) {
      setError('A source is 1 to 100 letters, digits or . : @ / - _');
      setField('source');
      return;
    }
    setBusy(true);
    setError(null);
    setField(null);
    try {
      const text = file === null ? pasted : await file.text();
      if (text.trim() === '') {
        setError(file === null ? 'Choose a file or paste its text.' : `${file.name} is empty.`);
        setField('body');
        return;
      }
      const answer = await api.importCatalogue(format, name, text);
      setSummary(answer);
      onImported(answer);
    } catch (caught) {
      setError(errorMessage(caught));
      setField(errorField(caught) ?? 'body');
    } finally {
      setBusy(false);
    }
  };

  // The server names the bad part: the source, or a place in the file (entities.3.kind).
  const fileInvalid = field !== null && field !== 'source' ? true : undefined;

  return (
    <form className="card catalogue-import" onSubmit={(e) => void submit(e)} data-testid="catalogue-import" noValidate>
      <div className="section-head">
        <h2>Import</h2>
        <button type="button" className="btn btn-small" onClick={onClose} data-testid="import-close">
          Close
        </button>
      </div>
      <p className="muted small">
        Importing the same file again changes nothing; what a source no longer reports is marked stale, not deleted.
      </p>
      <div className="import-grid">
        <div className="field">
          <label htmlFor="import-format">Format</label>
          <select
            id="import-format"
            value={format}
            onChange={(e) => { setFormat(e.target.value as CatalogueImportFormat); }}
            data-testid="import-format"
          >
            {catalogueImportFormats.map((f) => (
              <option key={f} value={f}>
                {formatLabels[f]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="import-source">Source (optional)</label>
          <input
            id="import-source"
            type="text"
            className="mono-input"
            value={source}
            maxLength={100}
            placeholder={format === 'changeledger' ? 'the file’s own, or “file”' : format}
            onChange={(e) => { setSource(e.target.value); }}
            aria-invalid={field === 'source' ? true : undefined}
            aria-describedby="import-source-help"
            spellCheck={false}
            autoComplete="off"
            data-testid="import-source"
          />
          <span id="import-source-help" className="muted small">
            Stale marking is per source: name each feed the same way every time.
          </span>
        </div>
        <div className="field field-span-2">
          <label htmlFor="import-file">File</label>
          <div className="file-row">
            <input
              id="import-file"
              ref={fileInput}
              type="file"
              accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml,text/plain"
              onChange={(e) => { setFile(e.target.files?.[0] ?? null); }}
              aria-invalid={file !== null ? fileInvalid : undefined}
              data-testid="import-file"
            />
            {file !== null && (
              <>
                <span className="muted small" data-testid="import-file-name">
                  {file.name} · {pluralize(file.size, 'byte')}
                </span>
                <button type="button" className="link-button small" onClick={clearFile}>
                  Remove
                </button>
              </>
            )}
          </div>
        </div>
        <div className="field field-span-2">
          <label htmlFor="import-text">Or paste the file</label>
          <textarea
            id="import-text"
            className="mono-input"
            rows={file === null ? 6 : 2}
            value={pasted}
            disabled={file !== null}
            placeholder={'format: changeledger/catalogue/1\nsource: cmdb\nentities:\n  - { key: "svc:checkout", kind: service, name: checkout }'}
            onChange={(e) => { setPasted(e.target.value); }}
            aria-invalid={file === null ? fileInvalid : undefined}
            spellCheck={false}
            data-testid="import-text"
          />
          {file !== null && <span className="muted small">The chosen file is imported; remove it to paste instead.</span>}
        </div>
      </div>
      <ErrorBanner message={error} testId="import-error">
        {field !== null && field !== 'body' && (
          <span className="mono small" data-testid="import-error-field">
            {field}
          </span>
        )}
      </ErrorBanner>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="import-submit">
          {busy ? 'Importing…' : 'Import'}
        </button>
      </div>
      {summary !== null && <ImportSummary summary={summary} />}
    </form>
  );
}

const countColumns = ['added', 'changed', 'unchanged', 'stale'] as const satisfies readonly (keyof ImportCounts)[];

function ImportSummary({ summary }: { summary: CatalogueImportSummary }) {
  const rows: readonly { part: 'entities' | 'links'; label: string; counts: ImportCounts }[] = [
    { part: 'entities', label: 'Entities', counts: summary.entities },
    { part: 'links', label: 'Links', counts: summary.links },
  ];
  return (
    <div className="import-summary" role="status" data-testid="import-summary">
      <p className="small">
        Imported from <span className="mono" data-testid="import-summary-source">{summary.source}</span> ({summary.format})
        {summary.ignored > 0 && <span className="muted"> · {pluralize(summary.ignored, 'object')} of kinds the catalogue does not keep ignored</span>}
      </p>
      <table className="data-table summary-table">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Part</span>
            </th>
            {countColumns.map((c) => (
              <th key={c} scope="col" className="num">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.part} data-testid="import-summary-row" data-part={row.part}>
              <th scope="row">{row.label}</th>
              {countColumns.map((c) => (
                <td
                  key={c}
                  className={row.counts[c] > 0 ? `num count-${c}` : 'num'}
                  data-testid={`import-${row.part}-${c}`}
                >
                  {row.counts[c].toLocaleString('en-US')}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
