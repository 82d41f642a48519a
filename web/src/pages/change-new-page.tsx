import { useState, type SubmitEvent } from 'react';
import { ApiError, api } from '../api/client';
import { changeKinds, type BlastPreview as Preview, type ChangeInput, type ChangeKind, type UnresolvedComponent } from '../api/types';
import { BeforeStateFieldset } from '../components/before-state-fields';
import { BlastPreview } from '../components/blast-preview';
import { changeHref } from '../components/change-table';
import { ChangeClassFields, emptyClassDraft, type ClassDraft } from '../components/change-class-fields';
import { ChangeWindowFields, defaultWindow, type WindowDraft } from '../components/change-window-fields';
import { ErrorBanner } from '../components/error-banner';
import { FieldError } from '../components/field-error';
import { Layout } from '../components/layout';
import { RegisterProblem, type Problem } from '../components/register-problem';
import { Link, useRouter, useSearchParams } from '../components/router';
import { ValidationPlanFields } from '../components/validation-plan-fields';
import { beforeStateBody, emptyBeforeState, type BeforeStateDraft } from '../lib/before-state-draft';
import { emptyBlastDraft, type BlastDraft } from '../lib/blast-preview';
import { kindLabels, utcInputToIso } from '../lib/change-format';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { rememberRegistration } from '../lib/registration-memo';
import { validationPlanOf, type ItemDraft } from '../lib/validation-draft';
import './change-new-page.css';

function componentLines(lines: string): string[] {
  return [...new Set(lines.split('\n').map((l) => l.trim()).filter((l) => l !== ''))];
}

function splitAddresses(text: string): string[] {
  return text.split(/[\s,;]+/).map((a) => a.trim()).filter((a) => a !== '');
}

type Form = {
  title: string;
  kind: ChangeKind;
  description: string;
  blast: BlastDraft;
  window: WindowDraft;
  evidenceMinutes: string;
  recipients: string;
  releaseHeld: boolean;
  governance: ClassDraft;
  beforeState: BeforeStateDraft;
  validation: ItemDraft[];
};

type Invalid = { message: string; field: string };

// What the form sends; a problem the server would refuse anyway is named before sending.
function buildInput(form: Form, now: Date): ChangeInput | Invalid {
  const title = form.title.trim();
  if (title === '') return { message: 'Give the change a title.', field: 'title' };
  const lines = componentLines(form.blast.lines);
  if (lines.length === 0) return { message: 'Name at least one component: one name or key a line.', field: 'components' };
  const input: ChangeInput = { title, kind: form.kind, components: lines.map((query) => ({ query })), hops: form.blast.hops, releaseHeld: form.releaseHeld };
  if (form.description.trim() !== '') input.description = form.description.trim();
  if (form.blast.silenceInfra !== null) input.silenceInfra = form.blast.silenceInfra;
  const w = form.window;
  if (w.mode === 'now') {
    const minutes = Number(w.nowMinutes);
    if (!Number.isInteger(minutes) || minutes < 5) return { message: 'The window lasts at least 5 minutes.', field: 'windowEnd' };
    input.startNow = true;
    if (minutes !== 60) input.windowEnd = new Date(now.getTime() + minutes * 60_000).toISOString();
  } else if (w.mode === 'window') {
    const start = utcInputToIso(w.start);
    if (start === null) return { message: 'Give the start of the window (UTC).', field: 'windowStart' };
    const end = utcInputToIso(w.end);
    if (end === null) return { message: 'Give the end of the window (UTC).', field: 'windowEnd' };
    input.windowStart = start;
    input.windowEnd = end;
  } else {
    const minutes = Number(w.maxDuration);
    if (!Number.isInteger(minutes)) return { message: 'Give the pipeline’s duration in whole minutes (5 – 10080).', field: 'maxDurationMinutes' };
    input.maxDurationMinutes = minutes;
    if (w.autoStart) input.autoStart = true;
  }
  if (form.evidenceMinutes.trim() !== '') {
    const minutes = Number(form.evidenceMinutes);
    if (!Number.isInteger(minutes)) return { message: 'The evidence horizon is whole minutes (15 – 1440).', field: 'evidenceMinutes' };
    input.evidenceMinutes = minutes;
  }
  const recipients = splitAddresses(form.recipients);
  if (recipients.length > 0) input.recipients = recipients;
  const g = form.governance;
  if (g.emergency) {
    if (g.emergencyReason.trim().length < 5) return { message: 'Say why this is an emergency (at least 5 characters).', field: 'emergencyReason' };
    if (g.incident.trim() === '') return { message: 'Link the incident or ticket the emergency answers: an id or a URL.', field: 'incident' };
    input.emergency = true;
    input.emergencyReason = g.emergencyReason.trim();
    input.incident = g.incident.trim();
  } else if (g.template !== '') input.template = g.template;
  // Fixed at registration (an edit does not take them): what ran before, and the checks read after.
  const before = beforeStateBody(form.beforeState);
  if (before !== null) Object.assign(input, before);
  if (form.validation.length > 0) input.validationPlan = validationPlanOf(form.validation);
  return input;
}

// A 400 for names the catalogue does not know, a 409 asking to confirm a large change, a
// 422 refusal: each has its own panel; anything else is a message, by its field if named.
function problemOf(caught: unknown): Problem | null {
  if (!(caught instanceof ApiError)) return null;
  const d = caught.details;
  if (caught.status === 400 && Array.isArray(d['unresolved'])) return { kind: 'unresolved', message: caught.message, unresolved: d['unresolved'] as UnresolvedComponent[] };
  if (caught.status === 409 && d['needsConfirm'] === true) return { kind: 'confirm', message: caught.message, counts: d['counts'] as Record<string, number> | undefined };
  if (caught.status === 422) return { kind: 'refused', message: caught.message };
  return null;
}

export function ChangeNewPage() {
  const { navigate } = useRouter();
  // ?component=svc:payments-api: "Register a change here" on a catalogue entity names it first.
  const prefill = useSearchParams().get('component')?.trim() ?? '';
  const [form, setForm] = useState<Form>(() => ({
    title: '',
    kind: 'deploy',
    description: '',
    blast: { ...emptyBlastDraft, lines: prefill },
    window: defaultWindow(new Date()),
    evidenceMinutes: '',
    recipients: '',
    releaseHeld: true,
    governance: emptyClassDraft,
    beforeState: emptyBeforeState,
    validation: [],
  }));
  const [preview, setPreview] = useState<Preview | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [field, setField] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);

  const set = (patch: Partial<Form>): void => { setForm((f) => ({ ...f, ...patch })); };

  const register = async (confirmLarge: boolean): Promise<void> => {
    const body = buildInput(form, new Date());
    setProblem(null);
    if ('message' in body) {
      setError(body.message);
      setField(body.field);
      return;
    }
    if (confirmLarge) body.confirmLarge = true;
    setBusy(true);
    setError(null);
    setField(null);
    try {
      const answer = await api.registerChange(body);
      rememberRegistration(answer);
      navigate(`${changeHref(answer.change.id)}?registered=1`);
    } catch (caught) {
      const p = problemOf(caught);
      setProblem(p);
      setError(p === null ? errorMessage(caught) : null);
      setField(p?.kind === 'unresolved' ? 'components' : errorField(caught));
      setBusy(false);
    }
  };

  const submit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    void register(false);
  };

  const invalid = (name: string): true | undefined => (fieldMatches(field, name) ? true : undefined);
  // A message the server tied to no input of this page goes to the banner at the top.
  const placed = ['title', 'kind', 'description', 'components', 'hops', 'silenceInfra', 'windowStart', 'windowEnd', 'maxDurationMinutes', 'evidenceMinutes', 'recipients', 'emergencyReason', 'incident', 'template', 'previousVersion', 'previousCommit', 'beforeState', 'validationPlan'];
  const loose = error !== null && !placed.some((name) => fieldMatches(field, name)) ? error : null;

  return (
    <Layout title="Register a change" actions={<Link className="btn" to="/changes">All changes</Link>}>
      <form className="change-form" onSubmit={submit} noValidate data-testid="change-form">
        <ErrorBanner message={loose} testId="change-form-error" />
        <section className="card">
          <h2>The change</h2>
          <div className="change-grid">
            <div className="field field-span-3">
              <label htmlFor="change-title">Title</label>
              <input
                id="change-title"
                type="text"
                value={form.title}
                maxLength={200}
                placeholder="Deploy checkout-api 1.2"
                onChange={(e) => { set({ title: e.target.value }); }}
                aria-invalid={invalid('title')}
                autoFocus
                data-testid="change-title"
              />
              <FieldError field={field} name="title" message={error} />
            </div>
            <div className="field">
              <label htmlFor="change-kind">Kind</label>
              <select id="change-kind" value={form.kind} onChange={(e) => { set({ kind: e.target.value as ChangeKind }); }} aria-invalid={invalid('kind')} data-testid="change-kind">
                {changeKinds.map((k) => (
                  <option key={k} value={k}>
                    {kindLabels[k]}
                  </option>
                ))}
              </select>
              <FieldError field={field} name="kind" message={error} />
            </div>
            <div className="field field-span-4">
              <label htmlFor="change-description">Description (optional)</label>
              <textarea
                id="change-description"
                rows={3}
                value={form.description}
                maxLength={20_000}
                placeholder="What changes, and how to roll it back"
                onChange={(e) => { set({ description: e.target.value }); }}
                aria-invalid={invalid('description')}
                data-testid="change-description"
              />
              <FieldError field={field} name="description" message={error} />
            </div>
          </div>
        </section>

        <BlastPreview
          draft={form.blast}
          onDraftChange={(blast) => {
            // New names are no longer the ones refused: the red border and the refusal go.
            if (blast.lines !== form.blast.lines && fieldMatches(field, 'components')) {
              setField(null);
              setError(null);
              if (problem?.kind === 'unresolved') setProblem(null);
            }
            set({ blast });
          }}
          onPreview={setPreview}
          idPrefix="change"
          componentsInvalid={invalid('components') === true || invalid('hops') === true || invalid('silenceInfra') === true}
          componentsError={
            <>
              <FieldError field={field} name="components" message={error} />
              <FieldError field={field} name="hops" message={error} />
              <FieldError field={field} name="silenceInfra" message={error} />
            </>
          }
        />

        <section className="card">
          <h2>When, and who hears of it</h2>
          <div className="change-grid">
            <div className="field-span-2">
              <ChangeWindowFields draft={form.window} onChange={(window) => { set({ window }); }} field={field} error={error} />
            </div>
            <div className="field">
              <label htmlFor="change-evidence">Evidence horizon (minutes)</label>
              <input
                id="change-evidence"
                type="number"
                min={15}
                max={1440}
                value={form.evidenceMinutes}
                placeholder="organisation default"
                onChange={(e) => { set({ evidenceMinutes: e.target.value }); }}
                aria-invalid={invalid('evidenceMinutes')}
                data-testid="change-evidence"
              />
              <span className="muted small">Surveillance after the change ends: 15 – 1440.</span>
              <FieldError field={field} name="evidenceMinutes" message={error} />
            </div>
            <div className="field">
              <label htmlFor="change-recipients">Report recipients</label>
              <textarea
                id="change-recipients"
                rows={2}
                value={form.recipients}
                placeholder="oncall@acme.io"
                onChange={(e) => { set({ recipients: e.target.value }); }}
                aria-invalid={invalid('recipients')}
                spellCheck={false}
                data-testid="change-recipients"
              />
              <span className="check">
                <input
                  id="change-release-held"
                  type="checkbox"
                  checked={form.releaseHeld}
                  onChange={(e) => { set({ releaseHeld: e.target.checked }); }}
                  data-testid="change-release-held"
                />
                <label htmlFor="change-release-held">Release held alerts at finish</label>
              </span>
              <FieldError field={field} name="recipients" message={error} />
            </div>
          </div>
        </section>

        <section className="card">
          <h2>Class</h2>
          <ChangeClassFields draft={form.governance} onChange={(governance) => { set({ governance }); }} field={field} error={error} />
        </section>

        <section className="card" data-testid="change-before-state-section">
          <h2>Before-state</h2>
          <p className="muted small change-card-lede">What runs now, to go back to: a production change may not start without it (the organisation’s rule).</p>
          <BeforeStateFieldset draft={form.beforeState} onChange={(beforeState) => { set({ beforeState }); }} field={field} error={error} idPrefix="change-before" />
        </section>

        <section className="card" data-testid="change-validation-section">
          <h2>Validation plan</h2>
          <p className="muted small change-card-lede">Checks that say, after the change, whether the problem it was meant to fix is gone.</p>
          <ValidationPlanFields rows={form.validation} onChange={(validation) => { set({ validation }); }} field={field} error={error} />
        </section>

        {problem !== null && (
          <RegisterProblem
            problem={problem}
            lines={form.blast.lines}
            busy={busy}
            onLines={(lines) => {
              set({ blast: { ...form.blast, lines } });
              setProblem(null);
              setField(null);
            }}
            onConfirm={() => void register(true)}
          />
        )}
        <div className="form-actions change-form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="change-submit">
            {busy ? 'Registering…' : 'Register change'}
          </button>
          <Link className="btn" to="/changes">
            Cancel
          </Link>
          {preview !== null && preview.refused === null && (
            <span className="muted small" data-testid="change-submit-scope">
              {preview.scopeLine}
            </span>
          )}
        </div>
      </form>
    </Layout>
  );
}
