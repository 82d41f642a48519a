import { Fragment, useState, type SubmitEvent } from 'react';
import { governanceApi } from '../api/governance-client';
import type { Template } from '../api/governance-types';
import type { ChangeKind, Session } from '../api/types';
import { kindLabels } from '../lib/change-format';
import { errorField, errorMessage } from '../lib/errors';
import { formatUtcMinute, sentence } from '../lib/format';
import { FieldError } from './field-error';
import { TemplateStateChip } from './governance-badges';

type Props = {
  templates: readonly Template[];
  session: Session;
  onEdit: (t: Template) => void;
  onDone: (text: string) => void;
};

const patterns = (list: readonly string[], empty: string) =>
  list.length === 0 ? <span className="muted">{empty}</span> : <span className="mono small">{list.join(', ')}</span>;

// The templates with what each pre-approves, its version and state, who drafted and who
// certified it, and what the signed-in person may do: edit (owners and admins), certify (an
// owner or approver who did not draft this version — the server says so to anyone else),
// withdraw with a reason.
export function TemplateTable({ templates, session, onEdit, onDone }: Props) {
  const manager = session.role === 'owner' || session.role === 'admin';
  return (
    <table className="data-table template-table" data-testid="template-table">
      <thead>
        <tr>
          <th scope="col">Template</th>
          <th scope="col">Kind</th>
          <th scope="col">Services</th>
          <th scope="col">Environments</th>
          <th scope="col" className="num">Max blast</th>
          <th scope="col" className="num">Hops</th>
          <th scope="col" className="num">Version</th>
          <th scope="col">State</th>
          <th scope="col">Author</th>
          <th scope="col">Certifier</th>
          <th scope="col" className="col-actions">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {templates.map((t) => (
          <TemplateRow key={t.id} template={t} session={session} manager={manager} onEdit={onEdit} onDone={onDone} />
        ))}
      </tbody>
    </table>
  );
}

type Open = 'withdraw' | null;

function TemplateRow({ template: t, session, manager, onEdit, onDone }: { template: Template; session: Session; manager: boolean; onEdit: (t: Template) => void; onDone: (text: string) => void }) {
  const [open, setOpen] = useState<Open>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<'certify' | 'withdraw' | null>(null);
  const [refusal, setRefusal] = useState<{ action: 'certify' | 'withdraw'; message: string; field: string | null } | null>(null);
  const mine = t.author.id === session.user.id;

  const certify = async (): Promise<void> => {
    setBusy('certify');
    setRefusal(null);
    try {
      const done = await governanceApi.certifyTemplate(t.id);
      onDone(`Certified “${done.name}” version ${String(done.version)}: changes it covers are standard.`);
    } catch (caught) {
      setRefusal({ action: 'certify', message: errorMessage(caught), field: errorField(caught) });
    } finally {
      setBusy(null);
    }
  };

  const withdraw = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (reason.trim().length < 5) {
      setRefusal({ action: 'withdraw', message: 'Say why the template is withdrawn (at least 5 characters).', field: 'reason' });
      return;
    }
    setBusy('withdraw');
    setRefusal(null);
    try {
      const done = await governanceApi.withdrawTemplate(t.id, reason.trim());
      const dropped = done.dropped > 0 ? ` ${String(done.dropped)} change${done.dropped === 1 ? '' : 's'} it made standard went back to normal.` : '';
      setOpen(null);
      setReason('');
      onDone(`Withdrew “${done.template.name}”.${dropped}`);
    } catch (caught) {
      setRefusal({ action: 'withdraw', message: errorMessage(caught), field: errorField(caught) });
    } finally {
      setBusy(null);
    }
  };

  const certifiable = t.state !== 'certified';
  const withdrawable = t.state !== 'withdrawn';
  const certifyRefusal = refusal?.action === 'certify' ? refusal.message : null;
  const withdrawRefusal = refusal?.action === 'withdraw' ? refusal : null;
  const sub = open !== null || certifyRefusal !== null;

  return (
    <Fragment>
      <tr className={sub ? 'template-row template-row-open' : 'template-row'} data-testid="template-row" data-template-id={t.id} data-name={t.name} data-state={t.state}>
        <td className="template-name-cell">
          <span className="strong" data-testid="template-row-name">{t.name}</span>
          {t.description !== '' && <div className="muted small template-description">{t.description}</div>}
          {t.state === 'withdrawn' && t.withdrawnReason !== null && <div className="small muted" data-testid="template-withdrawn-reason">Withdrawn: “{t.withdrawnReason}”</div>}
          {t.state === 'draft' && t.demotedAt !== null && <div className="small template-demoted" data-testid="template-demoted">{sentence(t.withdrawnReason ?? 'demoted after a rollback')}: certify it again to make changes standard by it.</div>}
        </td>
        <td className="nowrap">{kindLabels[t.kind as ChangeKind] ?? t.kind}</td>
        <td>{patterns(t.services, '—')}</td>
        <td>{patterns(t.environments, 'none named')}</td>
        <td className="num">{t.maxBlastServices}</td>
        <td className="num">{t.hops}</td>
        <td className="num" data-testid="template-version">v{t.version}</td>
        <td className="nowrap">
          <TemplateStateChip state={t.state} />
        </td>
        <td className="small template-person" data-testid="template-author" title={`Drafted version ${String(t.version)}`}>
          {t.author.email}
          {mine && <div className="muted">you</div>}
        </td>
        <td className="small template-person" data-testid="template-certifier">
          {t.certifiedBy === null ? (
            <span className="muted">—</span>
          ) : (
            <>
              {t.certifiedBy.email}
              {t.certifiedAt !== null && <div className="muted mono">{formatUtcMinute(t.certifiedAt)}</div>}
            </>
          )}
        </td>
        <td className="col-actions">
          <div className="template-actions">
            {manager && (
              <button type="button" className="btn btn-small" disabled={busy !== null} onClick={() => { onEdit(t); }} data-testid="template-edit">
                Edit
              </button>
            )}
            {certifiable && (
              <button
                type="button"
                className={mine ? 'btn btn-small' : 'btn btn-small btn-primary'}
                disabled={busy !== null}
                title={mine ? 'You drafted this version: a different owner or approver must certify it' : 'An owner or a designated approver who did not draft this version certifies it'}
                onClick={() => void certify()}
                data-testid="template-certify"
              >
                {busy === 'certify' ? 'Certifying…' : 'Certify'}
              </button>
            )}
            {withdrawable && (
              <button
                type="button"
                className="btn btn-small btn-danger-outline"
                aria-expanded={open === 'withdraw'}
                disabled={busy !== null}
                onClick={() => { setOpen(open === 'withdraw' ? null : 'withdraw'); setRefusal(null); }}
                data-testid="template-withdraw"
              >
                Withdraw…
              </button>
            )}
          </div>
        </td>
      </tr>
      {sub && (
        <tr className="template-sub-row" data-testid="template-sub-row" data-template-id={t.id}>
          <td colSpan={11}>
            {certifyRefusal !== null && (
              <p className="field-error small template-refusal" role="alert" data-testid="template-certify-error">
                Certify refused: {certifyRefusal}
              </p>
            )}
            {open === 'withdraw' && (
              <form className="template-withdraw" onSubmit={(e) => void withdraw(e)} noValidate data-testid="template-withdraw-form">
                <div className="field">
                  <label htmlFor={`withdraw-${t.id}`}>Why withdraw “{t.name}”?</label>
                  <input
                    id={`withdraw-${t.id}`}
                    type="text"
                    maxLength={2000}
                    value={reason}
                    autoFocus
                    placeholder="The restart procedure changed: INC-2231"
                    onChange={(e) => { setReason(e.target.value); if (withdrawRefusal?.field === 'reason') setRefusal(null); }}
                    aria-invalid={withdrawRefusal?.field === 'reason' ? true : undefined}
                    data-testid="template-withdraw-reason"
                  />
                  <FieldError field={withdrawRefusal?.field ?? 'reason'} name="reason" message={withdrawRefusal?.message ?? null} />
                  <span className="muted small">Changes it made standard that have not started go back to normal and wait for approval.</span>
                </div>
                <div className="request-actions">
                  <button type="submit" className="btn btn-small btn-danger" disabled={busy !== null} data-testid="template-withdraw-confirm">
                    {busy === 'withdraw' ? 'Withdrawing…' : 'Withdraw the template'}
                  </button>
                  <button type="button" className="btn btn-small" disabled={busy !== null} onClick={() => { setOpen(null); setRefusal(null); }}>
                    Back
                  </button>
                </div>
              </form>
            )}
          </td>
        </tr>
      )}
    </Fragment>
  );
}
