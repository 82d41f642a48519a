import { useEffect, useState, type SubmitEvent } from 'react';
import { unmanagedApi } from '../api/unmanaged-client';
import type { DryRun, UnmanagedSettings } from '../api/unmanaged-types';
import { errorField, errorMessage, fieldMatches } from '../lib/errors';
import { sentence } from '../lib/format';
import { draftOf, jiraFieldLabels, jiraFieldNames, patchOf, principalLineOf, principalLines, settingsOf, type Draft } from '../lib/unmanaged';
import { DryRunResult } from './dry-run-result';
import { FieldError } from './field-error';

type Problem = { field: string; message: string };

/**
 * The server's refusal of one pattern, said of the line of the box that holds it: the server
 * counts the patterns it was sent (blank lines left out), a person reads line numbers.
 */
function principalProblem(message: string, field: string | null, text: string): string {
  const line = principalLineOf(field, text);
  const index = field === null ? null : /\.(\d+)$/.exec(field)?.[1];
  if (line === null || index === undefined || index === null) return sentence(message);
  const glob = principalLines(text)[Number(index)]?.glob ?? '';
  const label = `Authorized principal ${String(Number(index) + 1)} `;
  const problem = message.startsWith(label) ? message.slice(label.length) : message;
  return `Line ${String(line)}: ${problem === message ? sentence(message) : `${glob} ${problem}`}`;
}
type Tried = { result: DryRun; draft: string };

// The fields of the settings the server names; a refusal of any other field is said by the buttons.
const named = ['referenceRule', 'authorizedPrincipals', 'itsmChangeMatch', 'deniedAccessToSecops'];

function Switch(p: { id: string; checked: boolean; disabled?: boolean; onChange: (on: boolean) => void; label: string; testId: string; invalid?: boolean }) {
  return (
    <span className="field-row unmanaged-switch">
      <input
        id={p.id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={p.checked}
        disabled={p.disabled}
        onChange={(e) => { p.onChange(e.target.checked); }}
        aria-invalid={p.invalid === true}
        data-testid={p.testId}
      />
      <label htmlFor={p.id}>{p.label}</label>
    </span>
  );
}

// Settings → Unmanaged changes, the form: the reference rule and the authorized principals, how
// change tickets are matched, and whether denied attempts open a case. Save sends what changed;
// "Try these settings" judges the last 7 days' writes with the form as it stands, unsaved.
export function UnmanagedSettingsForm(p: { settings: UnmanagedSettings; canEdit: boolean; isOwner: boolean; onSaved: (s: UnmanagedSettings) => void }) {
  const { settings, canEdit, isOwner } = p;
  const [d, setD] = useState<Draft>(() => draftOf(settings));
  const [saving, setSaving] = useState(false);
  const [trying, setTrying] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [tried, setTried] = useState<Tried | null>(null);

  useEffect(() => { setD(draftOf(settings)); }, [settings]);

  const set = (patch: Partial<Draft>): void => { setSaved(null); setD({ ...d, ...patch }); };
  const refused = (caught: unknown): void => { setProblem({ field: errorField(caught) ?? 'form', message: errorMessage(caught) }); };

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setSaved(null);
    setProblem(null);
    const patch = patchOf(d, settings);
    if (Object.keys(patch).length === 0) {
      setSaved('Nothing changed.');
      return;
    }
    setSaving(true);
    try {
      const answer = await unmanagedApi.updateSettings(patch);
      p.onSaved(answer);
      const switched = patch.referenceRule;
      setSaved(switched === true ? 'Saved. The reference rule is on: audit-log writes are judged as they arrive.' : switched === false ? 'Saved. The reference rule is off.' : 'Saved.');
    } catch (caught) {
      refused(caught);
    } finally {
      setSaving(false);
    }
  };

  const tryIt = async (): Promise<void> => {
    setProblem(null);
    setTrying(true);
    // The rule is taken as on by the dry run; its switch is the owner's and is not sent.
    const { referenceRule: _rule, ...unsaved } = settingsOf(d);
    try {
      setTried({ result: await unmanagedApi.dryRun(unsaved), draft: JSON.stringify(unsaved) });
    } catch (caught) {
      refused(caught);
    } finally {
      setTrying(false);
    }
  };

  const field = problem?.field ?? null;
  const message = problem?.message ?? null;
  const invalid = (name: string): boolean => fieldMatches(field, name);
  const elsewhere = field !== null && !named.some((n) => fieldMatches(field, n));
  const badLine = principalLineOf(field, d.principals);
  const { referenceRule: _r, ...current } = settingsOf(d);
  const stale = tried !== null && tried.draft !== JSON.stringify(current);
  const noPrincipals = principalLines(d.principals).length === 0;

  return (
    <form onSubmit={(e) => void submit(e)} data-testid="unmanaged-form" noValidate>
      <fieldset disabled={!canEdit || saving} className="plain-fieldset">
        <section className="card unmanaged-card" data-testid="unmanaged-rule-card" aria-labelledby="unmanaged-rule-title">
          <h2 id="unmanaged-rule-title">Reference rule</h2>
          <Switch
            id="unmanaged-rule"
            checked={d.referenceRule}
            disabled={!isOwner}
            onChange={(on) => { set({ referenceRule: on }); }}
            label={d.referenceRule ? 'On: every audit-log write needs a reference' : 'Off: writes are recorded, none is judged'}
            testId="unmanaged-rule"
            invalid={invalid('referenceRule')}
          />
          {!isOwner && canEdit && <p className="muted small" data-testid="unmanaged-rule-owner-only">Only an owner switches the reference rule; you can change everything else here.</p>}
          <FieldError field={field} name="referenceRule" message={message} />
          <div className="unmanaged-explain small">
            <p>
              With the rule on, every applied write that an audit log saw — AWS CloudTrail, the Azure activity log, the Kubernetes audit
              webhook — needs a reference, checked in this order: the id of an approved planned change whose scope covers it; a change
              ticket from your ITSM tool that matches it; an approved planned change whose blast radius and window cover it; or a principal
              listed below. A write with none is flagged <strong>unauthorized</strong>: it shows on the Changes list under “Unauthorized”,
              with the reason and a drafted command to undo it.
            </p>
            <p>
              Denied attempts are never judged (the source refused them; nothing changed), nor are the platform’s own plumbing and
              changeledger’s own writes. Writes are judged as they arrive.
            </p>
            <p>
              <strong>Before you turn it on</strong>, list your pipelines’ identities below and press “Try these settings”: without them,
              every deploy that carries no change id is flagged.
            </p>
          </div>
          {d.referenceRule && noPrincipals && (
            <p className="banner banner-warn small" data-testid="unmanaged-no-principals">
              No authorized principal is listed: every pipeline write without a change id or a matching ticket will be flagged.
            </p>
          )}
          <div className="field">
            <label htmlFor="unmanaged-principals">Authorized principals</label>
            <textarea
              id="unmanaged-principals"
              className="mono-input"
              rows={6}
              value={d.principals}
              placeholder={'system:serviceaccount:jenkins:*\narn:aws:iam::*:role/deploy-*'}
              onChange={(e) => { set({ principals: e.target.value }); }}
              spellCheck={false}
              aria-invalid={invalid('authorizedPrincipals')}
              aria-describedby="unmanaged-principals-hint"
              data-testid="unmanaged-principals"
            />
            {message !== null && fieldMatches(field, 'authorizedPrincipals') && (
              <span className="field-error small" role="alert" data-testid="field-error" data-field={field ?? undefined} data-line={badLine ?? undefined}>
                {principalProblem(message, field, d.principals)}
              </span>
            )}
            <span id="unmanaged-principals-hint" className="muted small">
              One pattern a line, matched case-blind against every name a principal goes by (its name, its id, an AWS session’s role ARN).{' '}
              <code>*</code> matches any run of characters but <code>/</code>; <code>**</code> crosses it. For example{' '}
              <code>system:serviceaccount:jenkins:*</code> (Kubernetes service accounts of a CI namespace),{' '}
              <code>arn:aws:iam::*:role/deploy-*</code> (an AWS deploy role), <code>sp-github-deploy</code> (an Azure service principal).
              A write by one of these is authorized whatever it changed: list pipelines, not people.
            </span>
          </div>
        </section>

        <section className="card unmanaged-card" data-testid="unmanaged-match-card" aria-labelledby="unmanaged-match-title">
          <h2 id="unmanaged-match-title">Ticket matching</h2>
          <p className="muted small">
            Which change tickets from ServiceNow or Jira vouch for a write. Only a ticket that arrived with the ITSM webhook token counts
            (below). An empty box does not narrow the match.
          </p>
          <div className="unmanaged-pair">
            <div className="field">
              <label htmlFor="unmanaged-states">States that count</label>
              <input id="unmanaged-states" type="text" value={d.states} placeholder="Implement, Scheduled" onChange={(e) => { set({ states: e.target.value }); }} spellCheck={false} aria-invalid={invalid('itsmChangeMatch.states')} data-testid="unmanaged-states" />
              <span className="muted small">Comma-separated, case-blind. Empty: any state but closed, cancelled, done or rejected.</span>
              <FieldError field={field} name="itsmChangeMatch.states" message={message} />
            </div>
            <div className="field">
              <label htmlFor="unmanaged-groups">Assignment groups</label>
              <input id="unmanaged-groups" type="text" value={d.assignmentGroups} placeholder="Platform Team, SRE" onChange={(e) => { set({ assignmentGroups: e.target.value }); }} spellCheck={false} aria-invalid={invalid('itsmChangeMatch.assignmentGroups')} data-testid="unmanaged-groups" />
              <span className="muted small">Comma-separated. Empty: a ticket of any group counts.</span>
              <FieldError field={field} name="itsmChangeMatch.assignmentGroups" message={message} />
            </div>
          </div>
          <div className="unmanaged-switches">
            <Switch id="unmanaged-window" checked={d.window} onChange={(on) => { set({ window: on }); }} label="The write’s time must fall in the ticket’s planned window" testId="unmanaged-window" invalid={invalid('itsmChangeMatch.window')} />
            <Switch id="unmanaged-items" checked={d.items} onChange={(on) => { set({ items: on }); }} label="One of the ticket’s configuration items or services must name the write’s service" testId="unmanaged-items" invalid={invalid('itsmChangeMatch.items')} />
          </div>
          <FieldError field={field} name="itsmChangeMatch.window" message={message} />
          <FieldError field={field} name="itsmChangeMatch.items" message={message} />
          <h3 className="unmanaged-subhead">Jira fields</h3>
          <p className="muted small">
            Jira has no planned window of its own: name the custom fields your site keeps it in (Jira settings → Issues → Custom fields;
            the id is in the field’s URL). Without them a Jira ticket has no window, and matches nothing while the window is required.
            Items is a field listing the services or configuration items a ticket names; components are always read as items.
          </p>
          <div className="unmanaged-jira">
            {jiraFieldNames.map((k) => (
              <div className="field" key={k}>
                <label htmlFor={`unmanaged-jira-${k}`}>{jiraFieldLabels[k].label}</label>
                <input
                  id={`unmanaged-jira-${k}`}
                  type="text"
                  className="mono-input"
                  value={d.jira[k]}
                  placeholder={jiraFieldLabels[k].placeholder}
                  onChange={(e) => { set({ jira: { ...d.jira, [k]: e.target.value } }); }}
                  spellCheck={false}
                  aria-invalid={invalid(`itsmChangeMatch.jiraFields.${k}`)}
                  data-testid={`unmanaged-jira-${k}`}
                />
                <FieldError field={field} name={`itsmChangeMatch.jiraFields.${k}`} message={message} />
              </div>
            ))}
          </div>
          {field !== null && (field === 'itsmChangeMatch' || field === 'itsmChangeMatch.jiraFields') && <FieldError field={field} name={field} message={message} />}
        </section>

        <section className="card unmanaged-card" data-testid="unmanaged-denied-card" aria-labelledby="unmanaged-denied-title">
          <h2 id="unmanaged-denied-title">Denied attempts</h2>
          <Switch id="unmanaged-denied" checked={d.deniedAccessToSecops} onChange={(on) => { set({ deniedAccessToSecops: on }); }} label="Denied attempts open a case" testId="unmanaged-denied" invalid={invalid('deniedAccessToSecops')} />
          <p className="muted small">
            A write the source refused changed nothing, but someone tried. With this on, each one opens a case for security, or joins the
            open case of the same principal in the same account within the same UTC hour, so a burst of tries reads as one. Denied attempts
            are listed under “Denied attempts” on the Changes list either way.
          </p>
          <FieldError field={field} name="deniedAccessToSecops" message={message} />
        </section>
      </fieldset>

      <section className="card unmanaged-card unmanaged-actions" data-testid="unmanaged-actions">
        {elsewhere && <p className="field-error small" role="alert" data-testid="unmanaged-error">{sentence(message ?? '')}</p>}
        <div className="form-actions">
          {canEdit && (
            <button type="submit" className="btn btn-primary" disabled={saving} data-testid="unmanaged-save">{saving ? 'Saving…' : 'Save'}</button>
          )}
          <button type="button" className="btn" onClick={() => void tryIt()} disabled={trying} data-testid="unmanaged-try">
            {trying ? 'Trying…' : 'Try these settings'}
          </button>
          {saved !== null && <span className="muted small" role="status" data-testid="unmanaged-saved">{saved}</span>}
        </div>
        <p className="muted small unmanaged-try-hint">
          “Try these settings” judges the last 7 days’ audit-log writes with the form as it stands, unsaved, as if the rule were on. It
          changes nothing.
        </p>
        {tried !== null && <DryRunResult result={tried.result} stale={stale} />}
      </section>
    </form>
  );
}
