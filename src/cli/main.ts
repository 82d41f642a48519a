import { Command, CommanderError } from 'commander';
import { version } from '../config.js';
import { alertCommands } from './alerts.js';
import { auditCommands } from './audit.js';
import { backupCommands } from './backup.js';
import { catalogueCommands } from './catalogue.js';
import { changeCommands } from './changes.js';
import { EXIT, processIo, reportError, type Io } from './common.js';
import { flagCommands } from './flags.js';
import { mcpCommands } from './mcp.js';
import { restoreCommands } from './restore.js';
import { serveCommands } from './serve.js';
import { tokenCommands } from './tokens.js';
import { userCommands } from './users.js';

export type MainOptions = { programName?: string; io?: Io };

/** Runs one command line; answers the exit code. */
export async function main(argv: string[], opts: MainOptions = {}): Promise<number> {
  const io = opts.io ?? processIo;
  const name = opts.programName ?? 'changeledger';
  let code: number = EXIT.ok;
  const done = (c: number) => {
    code = c;
  };
  const program = new Command(name)
    .description('change management and change audit: every production change becomes one tamper-evident record')
    .version(version)
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(add --help for usage)');

  serveCommands(program, io, done);
  userCommands(program, io, done);
  tokenCommands(program, io, done);
  auditCommands(program, io, done);
  backupCommands(program, io, done);
  restoreCommands(program, io, done);
  catalogueCommands(program, io, done);
  flagCommands(program, io, done);
  changeCommands(program, io, done);
  alertCommands(program, io, done);
  mcpCommands(program, io, done);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return reportError(err, io, name);
  }
}

// Run directly (node --import tsx src/cli/main.ts …) as well as through bin/changeledger.js.
if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2));
}
