/** What `changeledger serve` knows once both listeners are up. */
export type StartupFacts = {
  version: string;
  /** `embedded database in ./data` or `PostgreSQL at db.internal/changeledger`. */
  storage: string;
  url: string;
  pipelineUrl: string;
  /** The organisation and owner this start created, with the owner's one-time link. */
  created?: { orgName: string; ownerEmail: string; link: string } | null;
  /** A new link for the first owner, while no owner has set a password. */
  reissued?: { ownerEmail: string; link: string } | null;
};

/**
 * The block a person reads when the server has started: where it listens, and on a first start
 * the sign-in link on a line of its own (to click or copy). Written at once, after both listeners
 * are up, so no log line lands inside it; scripts wait for "pipeline listener on …" as ready.
 */
export function startupBlock(f: StartupFacts): string {
  const lines = [
    '',
    `changeledger ${f.version}: ${f.storage}`,
    `  web UI and API on ${f.url}`,
    `  pipeline listener on ${f.pipelineUrl} (API tokens only)`,
  ];
  if (f.created) {
    lines.push(
      '',
      `  first start: created organisation "${f.created.orgName}" and its owner ${f.created.ownerEmail}.`,
      '  Sign in once with this link (valid 24 hours, single use), then set a password under Account:',
      `  ${f.created.link}`,
    );
  } else if (f.reissued) {
    lines.push(
      '',
      `  no owner has set a password yet; ${f.reissued.ownerEmail} can sign in once with this link (valid 24 hours):`,
      `  ${f.reissued.link}`,
    );
  }
  lines.push('');
  return lines.join('\n');
}
