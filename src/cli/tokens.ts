import type { Command } from 'commander';
import { parseDuration, systemClock } from '../platform/clock.js';
import { badRequest } from '../platform/errors.js';
import { SCOPES } from '../domains/auth/index.js';
import { EXIT, runStoreOperation, table, withStoreOptions, type Io, type StoreOpts } from './common.js';
import { OPERATIONS } from './operations.js';

export function tokenCommands(program: Command, io: Io, done: (code: number) => void): void {
  const tokens = program.command('tokens').description('API tokens for pipelines (accepted on the pipeline listener only)');

  withStoreOptions(tokens.command('create').description('create a token; it is printed once and stored only as a hash'))
    .requiredOption('--user <email>', 'the member the token acts as')
    .requiredOption('--name <name>')
    .requiredOption('--scopes <list>', `comma-separated: ${SCOPES.join(', ')}`)
    .option('--expires <duration>', 'lifetime such as 30d or 12h (default: no expiry)')
    .option('--org <slug>')
    .option('--json', 'print JSON (the token is in "secret")')
    .action(async (o: StoreOpts & { user: string; name: string; scopes: string; expires?: string; org?: string; json?: boolean }) => {
      const scopes = o.scopes.split(',').map((s) => s.trim()).filter(Boolean);
      let expiresAt: string | undefined;
      if (o.expires) {
        const ms = parseDuration(o.expires);
        if (!ms) throw badRequest('--expires must be a duration such as 30d or 12h', 'expires');
        expiresAt = new Date(systemClock.now().getTime() + ms).toISOString();
      }
      const args = OPERATIONS['tokens.create'].check({ org: o.org, user: o.user, name: o.name, scopes, expiresAt });
      const created = await runStoreOperation(o, 'tokens.create', args);
      if (o.json) io.out(`${JSON.stringify(created, null, 2)}\n`);
      else {
        io.err(`created token ${created.token.id} "${created.token.name}" (${created.token.scopes.join(', ')}); it is shown only now:\n`);
        io.out(`${created.secret}\n`);
      }
      done(EXIT.ok);
    });

  withStoreOptions(tokens.command('list').description('every token of the organisation'))
    .option('--org <slug>')
    .option('--json', 'print JSON')
    .action(async (o: StoreOpts & { org?: string; json?: boolean }) => {
      const list = await runStoreOperation(o, 'tokens.list', OPERATIONS['tokens.list'].check({ org: o.org }));
      const now = systemClock.now().getTime();
      const status = (t: (typeof list)[number]) => (t.revokedAt ? 'revoked' : t.expiresAt && Date.parse(t.expiresAt) <= now ? 'expired' : 'active');
      if (o.json) io.out(`${JSON.stringify(list.map((t) => ({ ...t, status: status(t) })), null, 2)}\n`);
      else io.out(table([['ID', 'NAME', 'OWNER', 'SCOPES', 'STATUS', 'LAST USED'], ...list.map((t) => [t.id, t.name, t.owner.email, t.scopes.join(','), status(t), t.lastUsedAt ?? 'never'])]));
      done(EXIT.ok);
    });

  withStoreOptions(tokens.command('revoke').description('revoke a token by its 8-character id').argument('<id>'))
    .option('--org <slug>')
    .action(async (id: string, o: StoreOpts & { org?: string }) => {
      await runStoreOperation(o, 'tokens.revoke', OPERATIONS['tokens.revoke'].check({ org: o.org, id }));
      io.out(`revoked ${id}\n`);
      done(EXIT.ok);
    });
}
