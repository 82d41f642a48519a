import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { IMPORT_FORMATS } from '../domains/catalogue/catalogue-service.js';
import { EXIT, readInputFile, runStoreOperation, table, withStoreOptions, type Io, type StoreOpts } from './common.js';
import { OPERATIONS } from './operations.js';

/** Files this big get a progress bar (on a terminal). */
const LARGE_FILE_BYTES = 1024 * 1024;

export function catalogueCommands(program: Command, io: Io, done: (code: number) => void): void {
  const catalogue = program.command('catalogue').description('the service catalogue and its dependency graph');

  withStoreOptions(catalogue.command('import').description('import an estate file; importing the same file again changes nothing').argument('<file>', 'the file (- for standard input)'))
    .requiredOption('--format <format>', `one of ${IMPORT_FORMATS.join(', ')}`)
    .option('--source <name>', 'name of the source (what it no longer reports is marked stale)')
    .option('--org <slug>', 'organisation (needed when there are several)')
    .option('--json', 'print the summary as JSON')
    .action(async (file: string, o: StoreOpts & { format: string; source?: string; org?: string; json?: boolean }) => {
      // The format is judged before the file is read, the file before anything opens.
      const check = (text: string) => OPERATIONS['catalogue.import'].check({ org: o.org, format: o.format, source: o.source, text });
      check('');
      const { text, bytes } = file === '-' ? { text: await io.stdin(), bytes: 0 } : readInputFile(file);
      const args = check(text);
      const large = bytes >= LARGE_FILE_BYTES && process.stderr.isTTY;
      const bar = large ? new SingleBar({ format: '{phase} [{bar}] {value}/{total}', hideCursor: true }, Presets.shades_classic) : null;
      let phase = '';
      const summary = await runStoreOperation(o, 'catalogue.import', args, (event) => {
        const p = event as { phase: string; done: number; total: number };
        if (!bar) return;
        if (p.phase !== phase) {
          if (phase) bar.stop();
          phase = p.phase;
          bar.start(p.total, 0, { phase: p.phase.padEnd(8) });
        }
        bar.update(p.done);
      });
      bar?.stop();
      if (o.json) io.out(`${JSON.stringify(summary, null, 2)}\n`);
      else {
        io.out(`imported ${o.format} from source "${summary.source}"${summary.ignored ? ` (${summary.ignored} items of other kinds ignored)` : ''}\n`);
        io.out(table([
          ['', 'ADDED', 'CHANGED', 'UNCHANGED', 'LEFT STALE'],
          ['entities', ...[summary.entities.added, summary.entities.changed, summary.entities.unchanged, summary.entities.stale].map(String)],
          ['links', ...[summary.links.added, summary.links.changed, summary.links.unchanged, summary.links.stale].map(String)],
          ...(Object.values(summary.sources).some((n) => n > 0) ? [['sources', ...[summary.sources.added, summary.sources.changed, summary.sources.unchanged, summary.sources.stale].map(String)]] : []),
        ]));
      }
      done(EXIT.ok);
    });
}
