import type { Command } from 'commander';
import { serveConfig } from '../config.js';
import { startServer } from '../main.js';
import { EXIT, withStoreOptions, type Io } from './common.js';
import { migrate } from '../platform/db/migrate.js';
import { openStore } from '../platform/db/open-store.js';
import { storeConfig } from '../config.js';

export function serveCommands(program: Command, io: Io, done: (code: number) => void): void {
  withStoreOptions(program.command('serve').description('serve the web UI and API, the pipeline listener and the job worker'), {
    dataHelp: 'data directory of the embedded database; the server also opens its admin socket there (changeledger.sock, mode 0600) for the store commands of the CLI',
  })
    .option('--role <role>', 'all: listeners and job worker; web: the listeners only; worker: timers and outbox only, with /healthz, /readyz and /metrics on --port (web and worker need PostgreSQL) (default: $CHANGELEDGER_ROLE, else all)')
    .option('--host <address>', 'bind address of the main listener', process.env.HOST ?? 'localhost')
    .option('--port <port>', 'port of the web UI and session API', process.env.PORT ?? '8080')
    .option('--pipeline-host <address>', 'bind address of the pipeline listener', process.env.PIPELINE_HOST ?? 'localhost')
    .option('--pipeline-port <port>', 'port of the pipeline listener (API tokens)', process.env.PIPELINE_PORT ?? '4320')
    .option('--public-url <url>', 'where people reach the UI (sign-in links; https turns on Secure cookies)')
    .option('--trust-proxy <addresses>', 'reverse proxies whose X-Forwarded-For names the client, as addresses or CIDR ranges separated by commas (default: $CHANGELEDGER_TRUST_PROXY, else none)')
    .option('--org-name <name>', 'name of the first organisation on an empty database')
    .option('--owner-email <email>', 'e-mail of the first owner on an empty database')
    .option('--smtp-url <url>', 'SMTP server for e-mail: smtp://user:pass@host:587 or smtps://…:465 (default: $CHANGELEDGER_SMTP_URL, preferred: a password in an argument shows in ps)')
    .option('--mail-from <address>', 'sender of e-mails, e.g. "changeledger <changes@acme.com>" (default: $CHANGELEDGER_MAIL_FROM, else the SMTP user name when it is an address)')
    .action(async (o: Record<string, string | undefined>) => {
      // Handlers go in before the server starts, so a signal during start-up is not lost.
      let signal: string | null = null;
      let wake = () => undefined as void;
      const onSignal = (name: string) => () => {
        signal = name;
        wake();
      };
      process.once('SIGTERM', onSignal('SIGTERM'));
      process.once('SIGINT', onSignal('SIGINT'));
      const server = await startServer(serveConfig(o), { say: (l) => io.err(`${l}\n`) });
      if (!signal) await new Promise<void>((resolve) => (wake = resolve));
      io.err(`changeledger: ${signal}: finishing requests in flight and the job batch in hand…\n`);
      await server.close();
      io.err('changeledger: stopped\n');
      done(EXIT.ok);
    });

  withStoreOptions(program.command('migrate').description('apply pending database migrations'), { viaServer: false })
    .option('--json', 'print JSON')
    .action(async (o: { data?: string; databaseUrl?: string; json?: boolean }) => {
      const db = await openStore(storeConfig(o), 'changeledger migrate', { migrate: false });
      try {
        const r = await migrate(db);
        if (o.json) io.out(`${JSON.stringify({ applied: r.applied.map((m) => `${m.version}_${m.name}`), current: r.current })}\n`);
        else io.out(r.applied.length ? r.applied.map((m) => `applied ${String(m.version).padStart(4, '0')}_${m.name}\n`).join('') + `schema at version ${r.current}\n` : `schema up to date (version ${r.current})\n`);
      } finally {
        await db.close();
      }
      done(EXIT.ok);
    });
}
