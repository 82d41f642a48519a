import type { Command } from 'commander';
import { badRequest } from '../platform/errors.js';
import { ROLES, type Role } from '../domains/auth/index.js';
import { cliContext, cliServices, EXIT, table, withStore, withStoreOptions, type Io, type StoreOpts } from './common.js';

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
      if (!(ROLES as readonly string[]).includes(o.role)) throw badRequest(`--role must be one of ${ROLES.join(', ')}`, 'role');
      const password = o.passwordStdin ? (await io.stdin()).replace(/\r?\n$/, '') : undefined;
      const r = await withStore(o, 'users add', (db) =>
        cliServices(db, o).auth.addMember(cliContext(), { org: o.org, email: o.email, role: o.role as Role, displayName: o.name, password }),
      );
      if (o.json) io.out(`${JSON.stringify({ user: r.user, organization: r.org, role: o.role })}\n`);
      else io.out(`added ${r.user.email} to ${r.org.name} as ${o.role}${password === undefined ? ' (no password yet: changeledger users link --email …)' : ''}\n`);
      done(EXIT.ok);
    });

  withStoreOptions(users.command('list').description('members of the organisation'))
    .option('--org <slug>')
    .option('--json', 'print JSON')
    .action(async (o: StoreOpts & { org?: string; json?: boolean }) => {
      const members = await withStore(o, 'users list', async (db) => {
        const auth = cliServices(db, o).auth;
        return auth.listMembers((await auth.resolveOrganization(o.org)).id);
      });
      if (o.json) io.out(`${JSON.stringify(members, null, 2)}\n`);
      else io.out(table([['EMAIL', 'ROLE', 'PASSWORD', 'ID'], ...members.map((m) => [m.email, m.role, m.hasPassword ? 'set' : 'none', m.id])]));
      done(EXIT.ok);
    });

  withStoreOptions(users.command('link').description('print a one-time sign-in link (24 hours) for a member'))
    .requiredOption('--email <email>')
    .option('--org <slug>')
    .option('--public-url <url>', 'where people reach the UI', process.env.CHANGELEDGER_PUBLIC_URL ?? 'http://localhost:8080')
    .action(async (o: StoreOpts & { email: string; org?: string; publicUrl: string }) => {
      const token = await withStore(o, 'users link', async (db) => {
        const auth = cliServices(db, o).auth;
        return auth.createSignInLink(cliContext(), await auth.resolveOrganization(o.org), o.email);
      });
      io.out(`${o.publicUrl.replace(/\/+$/, '')}/signin/link#${token}\n`);
      done(EXIT.ok);
    });

  withStoreOptions(users.command('remove').description('remove a member: their sessions end and their tokens stop working'))
    .requiredOption('--email <email>')
    .option('--org <slug>')
    .action(async (o: StoreOpts & { email: string; org?: string }) => {
      await withStore(o, 'users remove', async (db) => {
        const auth = cliServices(db, o).auth;
        await auth.removeMember(cliContext(), await auth.resolveOrganization(o.org), o.email);
      });
      io.out(`removed ${o.email}\n`);
      done(EXIT.ok);
    });
}
