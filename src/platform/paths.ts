import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root, found from this file whether it runs from src/ (tsx), dist/server/ or dist/bundle/. */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('changeledger: cannot find the package root');
    dir = up;
  }
  return dir;
}

export const packageRoot = findRoot();
export const migrationsDir = join(packageRoot, 'migrations');
export const webDistDir = join(packageRoot, 'dist', 'web');
