import { useState } from 'react';
import { api } from '../api/client';
import type { BulkResult, Environment, Flag } from '../api/types';
import { pluralize } from '../lib/format';
import { ReasonDialog } from './reason-dialog';
import './kill-switch.css';

type Props = {
  namespace: string;
  flags: readonly Flag[];
  environments: readonly Environment[];
  onDone: (result: BulkResult, env: string) => void;
};

// Turns every flag under a namespace off in one environment, in one transaction with
// one record per flag under a shared correlation id. Flags whose changes need approval
// there come back as change requests instead.
export function KillSwitch({ namespace, flags, environments, onDone }: Props) {
  const [env, setEnv] = useState(environments[0]?.key ?? '');
  const [open, setOpen] = useState(false);
  const current = environments.some((e) => e.key === env) ? env : (environments[0]?.key ?? '');
  const envName = environments.find((e) => e.key === current)?.name ?? current;
  const on = flags.filter((f) => f.states.some((s) => s.env === current && s.enabled)).length;
  const risk = flags.some((f) => f.risk === 'high') ? 'high' : 'low';

  return (
    <div className="kill-switch" data-testid="kill-switch">
      <span>
        <strong>Kill switch</strong>: turn off every flag under <code>{namespace}</code> in
      </span>
      <label htmlFor="kill-switch-env" className="visually-hidden">
        Environment for the kill switch
      </label>
      <select id="kill-switch-env" value={current} onChange={(e) => { setEnv(e.target.value); }} data-testid="kill-switch-env">
        {environments.map((e) => (
          <option key={e.key} value={e.key}>
            {e.name}
          </option>
        ))}
      </select>
      <span className="muted small">{pluralize(on, 'flag')} on there now</span>
      <button
        type="button"
        className="btn btn-small btn-danger-outline"
        disabled={current === '' || flags.length === 0}
        onClick={() => { setOpen(true); }}
        data-testid="kill-switch-open"
      >
        Turn all off…
      </button>
      {open && (
        <ReasonDialog
          title={`Turn off ${pluralize(flags.length, 'flag')} in ${envName}`}
          summary={
            <p>
              Every flag under <code>{namespace}</code> is turned off in <strong>{envName}</strong>, each with its own
              record and one shared correlation id.
            </p>
          }
          risk={risk}
          confirmLabel="Turn all off"
          onSubmit={async (reason) => {
            const result = await api.bulkSetFlags({ namespace, env: current, enabled: false, reason });
            setOpen(false);
            onDone(result, current);
          }}
          onClose={() => { setOpen(false); }}
        />
      )}
    </div>
  );
}
