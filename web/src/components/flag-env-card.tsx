import { useEffect, useId, useState, type ReactNode } from 'react';
import { api } from '../api/client';
import type { ChangeRequest, Environment, Flag, FlagState, FlagStatePatch, FlagWriteResult } from '../api/types';
import { approvalsFor, formatRollout, formatRules, formatValue, onOff } from '../lib/flag-format';
import { parseRuleDrafts, parseValueText, ruleToDraft, valueToText, type RuleDraft } from '../lib/flag-values';
import { formatUtc, pluralize } from '../lib/format';
import { ReasonDialog } from './reason-dialog';
import { RulesEditor } from './rules-editor';
import { ValueInput } from './value-input';
import './flag-env-card.css';

type Props = {
  flag: Flag;
  env: Environment;
  state: FlagState;
  pending: number;
  onApplied: (result: FlagWriteResult) => void;
  onProposed: (request: ChangeRequest) => void;
};

type PendingWrite = { title: string; summary: ReactNode; patch: FlagStatePatch };

type Notice =
  | { kind: 'proposed'; request: ChangeRequest }
  | { kind: 'unchanged' }
  | { kind: 'applied'; text: string };

const defaultBucketBy = 'targetingKey';

function FromTo({ from, to, label }: { from: string; to: string; label?: string }) {
  return (
    <p className="change" data-testid="reason-change">
      {label !== undefined && <span className="change-label">{label} </span>}
      <span className="change-from">{from}</span>
      {' → '}
      <span className="change-to">{to}</span>
    </p>
  );
}

export function FlagEnvCard({ flag, env, state, pending, onApplied, onProposed }: Props) {
  const id = useId();
  const [write, setWrite] = useState<PendingWrite | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);

  const [valueText, setValueText] = useState(() => valueToText(flag.type, state.value));
  const [valueError, setValueError] = useState<string | null>(null);
  const [percentage, setPercentage] = useState(() => String(state.rollout?.percentage ?? 100));
  const [bucketBy, setBucketBy] = useState(() => state.rollout?.bucketBy ?? defaultBucketBy);
  const [rolloutError, setRolloutError] = useState<string | null>(null);
  const [rules, setRules] = useState<RuleDraft[]>(() => state.rules.map((r) => ruleToDraft(flag.type, r)));
  const [rulesError, setRulesError] = useState<{ message: string; row: number | null } | null>(null);

  // A new version (ours or anyone's) resets the drafts to what is now served.
  useEffect(() => {
    setValueText(valueToText(flag.type, state.value));
    setPercentage(String(state.rollout?.percentage ?? 100));
    setBucketBy(state.rollout?.bucketBy ?? defaultBucketBy);
    setRules(state.rules.map((r) => ruleToDraft(flag.type, r)));
    setValueError(null);
    setRolloutError(null);
    setRulesError(null);
    // Keyed on the version on purpose: the state object is new on every reload.
  }, [state.version, flag.type]);

  const approvals = approvalsFor(flag, env);

  const submit = async (patch: FlagStatePatch, reason: string): Promise<void> => {
    const answer = await api.setFlagState(flag.key, env.key, patch, reason);
    setWrite(null);
    if (answer.kind === 'proposed') {
      setNotice({ kind: 'proposed', request: answer.changeRequest });
      onProposed(answer.changeRequest);
      return;
    }
    setNotice(answer.result.result === 'unchanged' ? { kind: 'unchanged' } : null);
    onApplied(answer.result);
  };

  const toggle = (): void => {
    const next = !state.enabled;
    setNotice(null);
    setWrite({
      title: `Turn ${onOff(next)} in ${env.name}`,
      summary: <FromTo from={onOff(state.enabled)} to={onOff(next)} />,
      patch: { enabled: next },
    });
  };

  const saveValue = (): void => {
    const parsed = parseValueText(flag.type, valueText);
    if (!parsed.ok) {
      setValueError(parsed.error);
      return;
    }
    setValueError(null);
    setNotice(null);
    setWrite({
      title: `Change the value in ${env.name}`,
      summary: <FromTo label="value" from={formatValue(state.value)} to={formatValue(parsed.value)} />,
      patch: { value: parsed.value },
    });
  };

  const saveRollout = (): void => {
    const p = Number(percentage);
    if (percentage.trim() === '' || !Number.isFinite(p) || p < 0 || p > 100) {
      setRolloutError('The percentage is a number from 0 to 100.');
      return;
    }
    if (bucketBy.trim() === '') {
      setRolloutError('Name the context attribute that buckets, e.g. targetingKey or userId.');
      return;
    }
    setRolloutError(null);
    setNotice(null);
    const next = { percentage: p, bucketBy: bucketBy.trim() };
    const sameBucket = state.rollout !== null && state.rollout.bucketBy === next.bucketBy;
    setWrite({
      title: `Change the rollout in ${env.name}`,
      summary: sameBucket ? (
        <FromTo label="rollout" from={`${String(state.rollout?.percentage)}%`} to={`${String(p)}%`} />
      ) : (
        <FromTo label="rollout" from={formatRollout(state.rollout)} to={formatRollout(next)} />
      ),
      patch: { rollout: next },
    });
  };

  const removeRollout = (): void => {
    setNotice(null);
    setWrite({
      title: `Remove the rollout in ${env.name}`,
      summary: <FromTo label="rollout" from={formatRollout(state.rollout)} to="none (everyone)" />,
      patch: { rollout: null },
    });
  };

  const saveRules = (): void => {
    const parsed = parseRuleDrafts(flag.type, rules);
    if (!parsed.ok) {
      setRulesError({ message: parsed.error, row: parsed.row ?? null });
      return;
    }
    setRulesError(null);
    setNotice(null);
    setWrite({
      title: `Change the rules in ${env.name}`,
      summary: <FromTo label="rules" from={formatRules(state.rules)} to={formatRules(parsed.value)} />,
      patch: { rules: parsed.value },
    });
  };

  // Save buttons wake up once the draft differs from what is served. A draft that does
  // not parse counts as changed, so clicking Save explains what is wrong with it.
  const rolloutDirty =
    state.rollout === null ||
    Number(percentage) !== state.rollout.percentage ||
    percentage.trim() === '' ||
    bucketBy.trim() !== state.rollout.bucketBy;
  const parsedRules = parseRuleDrafts(flag.type, rules);
  const rulesDirty = !parsedRules.ok || JSON.stringify(parsedRules.value) !== JSON.stringify(state.rules);

  const served = flag.type === 'boolean' ? null : formatValue(state.value);
  const rolloutText = state.rollout === null ? null : `${String(state.rollout.percentage)}% of contexts by ${state.rollout.bucketBy}`;

  return (
    <section
      className={state.enabled ? 'card env-card env-on' : 'card env-card'}
      data-testid="env-card"
      data-env={env.key}
      data-enabled={String(state.enabled)}
      aria-labelledby={`${id}-title`}
    >
      <div className="env-card-head">
        <h2 id={`${id}-title`}>
          {env.name} <span className="mono muted small">{env.key}</span>
        </h2>
        <span className="muted small mono" title={`updated ${formatUtc(state.updatedAt)}`}>
          v{state.version} · {formatUtc(state.updatedAt)}
        </span>
      </div>

      <div className="env-toggle-row">
        <input
          id={`${id}-toggle`}
          type="checkbox"
          role="switch"
          className="switch"
          checked={state.enabled}
          onChange={toggle}
          disabled={write !== null}
          data-testid="env-toggle"
        />
        <label htmlFor={`${id}-toggle`} className="switch-label">
          <span className={state.enabled ? 'state state-on' : 'state state-off'} data-testid="env-status">
            {state.enabled ? 'on' : 'off'}
          </span>{' '}
          <span className="visually-hidden">{flag.key} in {env.name}</span>
        </label>
        <span className="muted small" data-testid="env-serving">
          {state.enabled
            ? `Serving ${served ?? 'true'}${rolloutText === null ? '' : ` to ${rolloutText}`}${state.rules.length > 0 ? `, ${pluralize(state.rules.length, 'rule')} first` : ''}`
            : `Off: serving ${formatValue(flag.offValue)}`}
        </span>
      </div>

      {(approvals > 0 || pending > 0) && (
        <p className="env-policy small">
          {approvals > 0 && (
            <span data-testid="env-approval-policy">Changes here need {pluralize(approvals, 'approval')}.</span>
          )}{' '}
          {pending > 0 && (
            <a href="#change-requests" data-testid="env-pending">
              {pluralize(pending, 'pending change request')}
            </a>
          )}
        </p>
      )}

      {notice?.kind === 'proposed' && (
        <div className="banner banner-warn" role="status" data-testid="env-proposed">
          <span className="banner-text">
            Change request proposed — needs {pluralize(notice.request.approvalsNeeded, 'approval')}.
          </span>
          <button type="button" className="btn btn-small" onClick={() => { setNotice(null); }}>
            Dismiss
          </button>
        </div>
      )}
      {notice?.kind === 'unchanged' && (
        <div className="banner banner-ok" role="status" data-testid="env-unchanged">
          <span className="banner-text">Nothing changed: it was already so. The attempt is recorded.</span>
        </div>
      )}

      {flag.type !== 'boolean' && (
        <div className="env-section">
          <label htmlFor={`${id}-value`} className="env-section-title">
            Value when on
          </label>
          <div className="env-section-row">
            <ValueInput
              id={`${id}-value`}
              type={flag.type}
              text={valueText}
              onText={setValueText}
              invalid={valueError !== null}
              testId="env-value"
            />
            <button
              type="button"
              className="btn btn-small"
              onClick={saveValue}
              disabled={valueText === valueToText(flag.type, state.value)}
              data-testid="env-value-save"
            >
              Save value…
            </button>
          </div>
          {valueError !== null && (
            <span className="field-error small" role="alert">
              {valueError}
            </span>
          )}
        </div>
      )}

      <fieldset className="env-section">
        <legend className="env-section-title">Rollout</legend>
        <p className="muted small">
          {state.rollout === null ? 'No rollout: everyone gets the value.' : `Currently ${formatRollout(state.rollout)}.`}
        </p>
        <div className="env-section-row rollout-row">
          <label htmlFor={`${id}-pct-range`} className="visually-hidden">
            Rollout percentage slider in {env.name}
          </label>
          <input
            id={`${id}-pct-range`}
            type="range"
            min={0}
            max={100}
            step={1}
            value={Number.isFinite(Number(percentage)) ? Number(percentage) : 0}
            onChange={(e) => { setPercentage(e.target.value); }}
            data-testid="rollout-range"
          />
          <label htmlFor={`${id}-pct`} className="inline-label">
            Percentage
          </label>
          <input
            id={`${id}-pct`}
            type="number"
            className="input-number"
            min={0}
            max={100}
            step={1}
            value={percentage}
            onChange={(e) => { setPercentage(e.target.value); }}
            aria-invalid={rolloutError !== null ? true : undefined}
            data-testid="rollout-percentage"
          />
          <span className="muted">%</span>
        </div>
        <div className="env-section-row rollout-row">
          <label htmlFor={`${id}-bucket`} className="inline-label">
            Bucket by
          </label>
          <input
            id={`${id}-bucket`}
            type="text"
            className="mono-input bucket-input"
            value={bucketBy}
            maxLength={100}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => { setBucketBy(e.target.value); }}
            aria-describedby={`${id}-bucket-help`}
            data-testid="rollout-bucket"
          />
          <button
            type="button"
            className="btn btn-small"
            onClick={saveRollout}
            disabled={!rolloutDirty}
            data-testid="rollout-save"
          >
            Save rollout…
          </button>
          {state.rollout !== null && (
            <button type="button" className="btn btn-small" onClick={removeRollout} data-testid="rollout-remove">
              Remove rollout…
            </button>
          )}
        </div>
        <span id={`${id}-bucket-help`} className="muted small">
          The context attribute that keeps each user in the same bucket, e.g. targetingKey or userId.
        </span>
        {rolloutError !== null && (
          <span className="field-error small block" role="alert" data-testid="rollout-error">
            {rolloutError}
          </span>
        )}
      </fieldset>

      <fieldset className="env-section">
        <legend className="env-section-title">Targeting rules</legend>
        <RulesEditor
          idPrefix={id}
          type={flag.type}
          drafts={rules}
          invalidRow={rulesError?.row ?? null}
          onChange={(next) => {
            setRules(next);
            setRulesError(null);
          }}
          actions={
            <button
              type="button"
              className="btn btn-small"
              onClick={saveRules}
              disabled={!rulesDirty}
              data-testid="rules-save"
            >
              Save rules…
            </button>
          }
        />
        {rulesError !== null && (
          <span className="field-error small block" role="alert" data-testid="rules-error">
            {rulesError.message}
          </span>
        )}
      </fieldset>

      {write !== null && (
        <ReasonDialog
          title={write.title}
          summary={
            <>
              <p className="mono small">{flag.key}</p>
              {write.summary}
            </>
          }
          risk={flag.risk}
          approvals={approvals}
          onSubmit={(reason) => submit(write.patch, reason)}
          onClose={() => { setWrite(null); }}
        />
      )}
    </section>
  );
}
