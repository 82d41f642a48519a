#!/usr/bin/env node
// The CLI, compiled and bundled into dist/bundle; `npm start` and `npm run build` produce it.
import { existsSync } from 'node:fs';
const entry = new URL('../dist/bundle/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('changeledger: not built yet; run `npm run build` (or `npm start`) first\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
