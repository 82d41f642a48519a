import { useEffect, useState } from 'react';
import { entityHref } from '../lib/catalogue';
import { entityExists, ownerEntityKey } from '../lib/flag-owner';
import { Link } from './router';

// A flag's owner service: a link to its catalogue entity when the catalogue has it, else the
// name as written.
export function FlagOwner({ owner, testId }: { owner: string | null; testId?: string }) {
  const key = owner === null ? null : ownerEntityKey(owner);
  const [exists, setExists] = useState(false);

  useEffect(() => {
    let live = true;
    setExists(false);
    if (key !== null) void entityExists(key).then((yes) => { if (live) setExists(yes); });
    return () => { live = false; };
  }, [key]);

  if (owner === null || key === null) return <span className="muted" data-testid={testId}>—</span>;
  if (!exists) return <span data-testid={testId}>{owner}</span>;
  return (
    <Link to={entityHref(key)} data-testid={testId} data-entity={key} title={`Open ${key} in the catalogue`}>
      {owner}
    </Link>
  );
}
