import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot, webDistDir } from '../../src/platform/paths.js';

const webRoot = join(packageRoot, 'web');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The built web UI for an in-process app: dist/web when `npm run build` made it after the last
 * edit under web/, else a fresh build into a directory of its own (dist/web is left alone: other
 * test files may be serving it). `dispose` removes what was built here.
 */
export async function webBundle(): Promise<{ dir: string; built: boolean; dispose(): void }> {
  const index = join(webDistDir, 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs > newestSource(webRoot)) return { dir: webDistDir, built: false, dispose: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'changeledger-web-'));
  const vite = join(packageRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--config', join(webRoot, 'vite.config.ts'), '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], { cwd: packageRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`vite build failed (${String(code)}):\n${err}`))));
  });
  return { dir, built: true, dispose: () => { rmSync(dir, { recursive: true, force: true }); } };
}
