import { Fragment, useState } from 'react';
import type { Token } from '../api/types';
import { formatUtc, formatUtcMinute } from '../lib/format';
import { tokenStatus } from '../lib/token-status';
import './token-table.css';

type Props = {
  tokens: readonly Token[];
  revoking: string | null;
  onRevoke: (id: string) => void;
};

const columnCount = 8;

export function TokenTable({ tokens, revoking, onRevoke }: Props) {
  // Revoking cannot be undone and breaks whatever uses the token: ask once more in a
  // row under the token, which keeps the table from growing sideways.
  const [confirming, setConfirming] = useState<string | null>(null);
  const now = Date.now();

  return (
    <table className="data-table token-table" data-testid="token-list">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Id</th>
          <th scope="col">Status</th>
          <th scope="col">Scopes</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">Expires</th>
          <th scope="col" className="col-actions">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {tokens.map((token) => {
          const status = tokenStatus(token, now);
          const busy = revoking === token.id;
          const classes = [status === 'active' ? '' : 'inactive', confirming === token.id ? 'confirming' : '']
            .filter((c) => c !== '')
            .join(' ');
          return (
            <Fragment key={token.id}>
              <tr
                className={classes === '' ? undefined : classes}
                data-testid="token-row"
                data-token-id={token.id}
                data-token-name={token.name}
              >
                <td className="strong nowrap">{token.name}</td>
                <td className="mono">{token.id}</td>
                <td>
                  <span className={`status status-${status}`} data-testid="token-status">
                    {status}
                  </span>
                </td>
                <td>
                  <div className="scope-list">
                    {token.scopes.map((scope) => (
                      <span key={scope} className="pill mono">
                        {scope}
                      </span>
                    ))}
                  </div>
                </td>
                <td className="nowrap" title={formatUtc(token.createdAt)}>
                  <div className="mono">{formatUtcMinute(token.createdAt)}</div>
                  <div className="muted small ellipsis" title={token.owner.email}>
                    by {token.owner.email}
                  </div>
                </td>
                <td className="mono nowrap" title={token.lastUsedAt === null ? undefined : formatUtc(token.lastUsedAt)}>
                  {token.lastUsedAt === null ? 'never' : formatUtcMinute(token.lastUsedAt)}
                </td>
                <td
                  className="mono nowrap"
                  title={status === 'revoked' ? `revoked ${formatUtc(token.revokedAt)}` : undefined}
                >
                  {token.expiresAt === null ? 'never' : formatUtcMinute(token.expiresAt)}
                </td>
                <td className="col-actions nowrap">
                  {status !== 'revoked' && (
                    <button
                      type="button"
                      className="btn btn-small btn-danger-outline"
                      disabled={busy || confirming === token.id}
                      onClick={() => { setConfirming(token.id); }}
                      aria-label={`Revoke token ${token.name}`}
                      data-testid="token-revoke"
                    >
                      {busy ? 'Revoking…' : 'Revoke'}
                    </button>
                  )}
                </td>
              </tr>
              {confirming === token.id && status !== 'revoked' && (
                <tr className="confirm-row" data-testid="token-revoke-confirm-row" data-token-id={token.id}>
                  <td colSpan={columnCount}>
                    <span className="confirm" role="alertdialog" aria-label={`Confirm revoking ${token.name}`}>
                      <span>
                        Revoke <strong>{token.name}</strong>? Anything using this token stops working immediately.
                        This cannot be undone.
                      </span>
                      <button
                        type="button"
                        className="btn btn-small btn-danger"
                        onClick={() => {
                          setConfirming(null);
                          onRevoke(token.id);
                        }}
                        data-testid="token-revoke-confirm"
                      >
                        Yes, revoke
                      </button>
                      <button
                        type="button"
                        className="btn btn-small"
                        onClick={() => { setConfirming(null); }}
                        data-testid="token-revoke-cancel"
                      >
                        Cancel
                      </button>
                    </span>
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
