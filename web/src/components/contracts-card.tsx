import type { BlastContracts, ContractRoute, EdgeContract } from '../api/types';
import { formatUtcMinute, pluralize } from '../lib/format';
import './contracts-card.css';

export type ContractsState =
  | { status: 'idle' }
  | { status: 'loading'; previous: BlastContracts | null }
  | { status: 'ready'; contracts: BlastContracts }
  | { status: 'error'; message: string }
  | { status: 'refused' };

const noTraces = 'no traces seen for this edge';

function percent(share: number): string {
  if (share === 0) return '0%';
  const p = share * 100;
  return `${p < 1 ? p.toFixed(1) : String(Math.round(p))}%`;
}

function RouteRow({ route }: { route: ContractRoute }) {
  return (
    <tr data-testid="contract-route" data-route={route.route} data-method={route.method ?? ''}>
      <td className="mono nowrap">{route.method ?? '—'}</td>
      <td className="mono contract-route-path">
        {route.route}
        {route.externalIngress && (
          <span className="ingress-badge" data-testid="external-ingress" title="The same route is also reached from outside the estate">
            external ingress
          </span>
        )}
      </td>
      <td className="num">{route.calls.toLocaleString('en-US')}</td>
      <td className={route.errorShare > 0 ? 'num contract-errors' : 'num'}>{percent(route.errorShare)}</td>
      <td className="num">{route.p95Ms.toLocaleString('en-US')} ms</td>
      <td className="mono ellipsis-cell muted" title={route.samplePath ?? undefined}>
        {route.samplePath ?? '—'}
      </td>
      <td className="mono nowrap muted small">{formatUtcMinute(route.lastSeen)}</td>
    </tr>
  );
}

function EdgeHead({ edge }: { edge: EdgeContract }) {
  return (
    <span className="contract-edge-name">
      <span className="strong" title={edge.caller.key}>
        {edge.caller.name}
      </span>
      <span className="muted"> → </span>
      <span className="strong" title={edge.callee.key}>
        {edge.callee.name}
      </span>
    </span>
  );
}

// The contract of each service → service call edge of the blast radius: the callee's
// routes this caller uses. Loaded after the preview, never holding it up.
export function ContractsCard({ state }: { state: ContractsState }) {
  if (state.status === 'idle') return null;
  const contracts = state.status === 'ready' ? state.contracts : state.status === 'loading' ? state.previous : null;
  const withRoutes = contracts?.edges.filter((e) => e.routes.length > 0) ?? [];
  const without = contracts?.edges.filter((e) => e.routes.length === 0) ?? [];

  return (
    <section className="card contracts-card" data-testid="contracts" aria-busy={state.status === 'loading'}>
      <div className="contracts-head">
        <h2>Contracts</h2>
        {contracts !== null && (
          <span className="muted" data-testid="contracts-header">
            {contracts.header}
          </span>
        )}
        {state.status === 'loading' && <span className="muted small">{contracts === null ? 'Loading contracts…' : 'Updating…'}</span>}
      </div>
      {state.status === 'refused' && (
        <p className="muted small" data-testid="contracts-not-listed">
          Not listed for a change a save would refuse.
        </p>
      )}
      {state.status === 'error' && (
        <p className="field-error" role="alert" data-testid="contracts-error">
          Contracts could not be loaded: {state.message}
        </p>
      )}
      {contracts !== null && contracts.total === 0 && <p className="muted small">No service → service call edge in the blast radius.</p>}
      {withRoutes.map((edge) => (
        <div key={`${edge.caller.key}>${edge.callee.key}`} className="contract-edge" data-testid="contract-edge" data-caller={edge.caller.key} data-callee={edge.callee.key}>
          <div className="contract-edge-head">
            <EdgeHead edge={edge} />
            <span className="muted small">{pluralize(edge.routes.length, 'route')}</span>
          </div>
          <table className="data-table contract-routes">
            <thead>
              <tr>
                <th>Method</th>
                <th>Route</th>
                <th className="num">Calls</th>
                <th className="num">Errors</th>
                <th className="num">p95</th>
                <th>Sample path</th>
                <th>Last seen</th>
              </tr>
            </thead>
            <tbody>
              {edge.routes.map((r) => (
                <RouteRow key={`${r.method ?? ''} ${r.route}`} route={r} />
              ))}
            </tbody>
          </table>
        </div>
      ))}
      {without.length > 0 && (
        <ul className="contract-untraced">
          {without.map((edge) => (
            <li key={`${edge.caller.key}>${edge.callee.key}`} data-testid="contract-edge" data-caller={edge.caller.key} data-callee={edge.callee.key}>
              <EdgeHead edge={edge} />
              <span className="muted small" data-testid="contract-note">
                {' '}
                — {edge.note ?? noTraces}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
