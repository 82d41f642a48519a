import type { Command } from 'commander';
import { ROLES } from '../domains/auth/index.js';
import { EXIT, runStoreOperation, table, withStoreOptions, type Io, type StoreOpts } from './common.js';
import { OPERATIONS } from './operations.js';

export function userCommands(program: Command, io: Io, done: (code: number) => void): void {
  const users = program.command('users').description('people and their roles');

  withStoreOptions(users.command('add').description('add a person to the organisation (creates it on an empty database)'))
    .requiredOption('--email <email>')
    .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`)
    .option('--name <name>', 'display name')
    .option('--org <slug>', 'organisation (needed when there are several)')
    .option('--password-stdin', 'read a password from standard input')
    .option('--json', 'print JSON')
    .action(async (o: StoreOpts & { email: string; role: string; name?: string; org?: string; passwordStdin?: boolean; json?: boolean }) => {
      // Judged before anything opens: a bad e-mail or role never waits on the store or the server.
      const check = (password?: string) => OPERATIONS['users.add'].check({ org: o.org, email: o.email, role: o.role, displayName: o.name, password });
      check();
      const args = o.passwordStdin ? check((await io.stdin()).replace(/\r?\n$/, '')) : check();
      const r = await runStoreOperation(o, 'users.add', args);
      if (o.json) io.out(`${JSON.stringify(r)}\n`);
      else io.out(`added ${r.user.email} to ${r.organization.name} as ${r.role}${args.password === undefined ? ' (no password yet: changeledger users link --email …)' : ''}\n`);
      done(EXIT.ok);
    });

  withStoreOptions(users.command('list').description('members of the organisation'))
    .option('--org <slug>')
    .option('--json', 'print JSON')
    .action(async (o: StoreOpts & { org?: string; json?: boolean }) => {
      const members = await runStoreOperation(o, 'users.list', OPERATIONS['users.list'].check({ org: o.org }));
      if (o.json) io.out(`${JSON.stringify(members, null, 2)}\n`);
      else io.out(table([['EMAIL', 'ROLE', 'PASSWORD', 'ID'], ...members.map((m) => [m.email, m.role, m.hasPassword ? 'set' : 'none', m.id])]));
      done(EXIT.ok);
    });

  withStoreOptions(users.command('link').description('print a one-time sign-in link (24 hours) for a member'))
    .requiredOption('--email <email>')
    .option('--org <slug>')
    .option('--public-url <url>', 'where people reach the UI', process.env.CHANGELEDGER_PUBLIC_URL ?? 'http://localhost:8080')
    .action(async (o: StoreOpts & { email: string; org?: string; publicUrl: string }) => {
      const { token } = await runStoreOperation(o, 'users.link', OPERATIONS['users.link'].check({ org: o.org, email: o.email }));
      io.out(`${o.publicUrl.replace(/\/+$/, '')}/signin/link#${token}\n`);
      done(EXIT.ok);
    });

  withStoreOptions(users.command('remove').description('remove a member: their sessions end and their tokens stop working'))
    .requiredOption('--email <email>')
    .option('--org <slug>')
    .action(async (o: StoreOpts & { email: string; org?: string }) => {
      await runStoreOperation(o, 'users.remove', OPERATIONS['users.remove'].check({ org: o.org, email: o.email }));
      io.out(`removed ${o.email}\n`);
      done(EXIT.ok);
    });
}
