import type { Environment, Flag } from '../api/types';
import { flagHref } from '../lib/flag-format';
import { formatUtc } from '../lib/format';
import { EnvStateBadge, RiskBadge } from './flag-badges';
import { FlagOwner } from './flag-owner';
import { Link } from './router';
import './flag-table.css';

type Props = {
  flags: readonly Flag[];
  environments: readonly Environment[];
  highlight: string | null;
};

export function FlagTable({ flags, environments, highlight }: Props) {
  return (
    <table className="data-table flag-table" data-testid="flag-table">
      <thead>
        <tr>
          <th scope="col">Key</th>
          <th scope="col">Type</th>
          <th scope="col">Risk</th>
          <th scope="col">Owner</th>
          {environments.map((env) => (
            <th scope="col" key={env.key} title={env.key}>
              {env.name}
            </th>
          ))}
          <th scope="col">Tags</th>
        </tr>
      </thead>
      <tbody>
        {flags.map((flag) => (
          <tr
            key={flag.key}
            className={flag.key === highlight ? 'selected' : undefined}
            data-testid="flag-row"
            data-flag-key={flag.key}
          >
            <td className="nowrap">
              <Link to={flagHref(flag.key)} className="mono" data-testid="flag-link" title={flag.description || undefined}>
                {flag.key}
              </Link>
              <div className="muted small ellipsis" title={`updated ${formatUtc(flag.updatedAt)}`}>
                {flag.description}
              </div>
            </td>
            <td className="mono">{flag.type}</td>
            <td>
              <RiskBadge risk={flag.risk} />
            </td>
            <td className="mono">
              <FlagOwner owner={flag.ownerService} testId="flag-row-owner" />
            </td>
            {environments.map((env) => (
              <td key={env.key} className="nowrap">
                <EnvStateBadge state={flag.states.find((s) => s.env === env.key)} type={flag.type} />
              </td>
            ))}
            <td>
              <div className="scope-list">
                {flag.tags.map((tag) => (
                  <span key={tag} className="pill">
                    {tag}
                  </span>
                ))}
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
