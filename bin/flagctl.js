#!/usr/bin/env node
// flagctl is the short form of `changeledger flags …`.
import { existsSync } from 'node:fs';
const entry = new URL('../dist/bundle/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('flagctl: not built yet; run `npm run build` first\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(['flags', ...process.argv.slice(2)], { programName: 'flagctl' });
