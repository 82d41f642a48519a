// `npm run build`'s second step: the compiled server (dist/server) and the dependencies it loads,
// bundled by esbuild into dist/bundle/main.js, which bin/changeledger.js and bin/flagctl.js run,
// and dist/bundle/chunks/, the modules loaded at their first use and the code they share with it.
// Node otherwise reads about 1,900 module files at every start (TypeBox's ESM build alone is 679):
// measured in `npm run bench -- pglite-footprint`, which starts the unbundled build beside it.
//
// Left out, and loaded from node_modules as before, are the packages that read files of their own
// at run time: PGlite (its WebAssembly and data files, and the data-directory maker runs it by
// path), @fastify/swagger (its package.json) and @fastify/swagger-ui (its static files).
// The ledger's walk worker is bundled beside main.js, where ledger-file.ts looks for it.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @fastify/cookie loads the CommonJS package `cookie` with import(). Split into a chunk of its own,
 * such a module exports only its default, and the plugin's named calls fail (500 at every sign-in).
 * A require() keeps it in the bundle, where its names are there. The build fails if the text moved.
 */
const cookieRequire = {
  name: 'fastify-cookie-require',
  setup(b) {
    b.onLoad({ filter: /[\\/]@fastify[\\/]cookie[\\/]index\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const from = "await import('cookie')";
      if (!text.includes(from)) throw new Error(`${args.path} no longer says ${from}: see scripts/bundle-server.mjs`);
      return { contents: text.replace(from, "require('cookie')"), loader: 'js' };
    });
  },
};
const outdir = join(root, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: { main: 'dist/server/cli/main.js', 'ledger-walk-worker': 'dist/server/domains/ledger/ledger-walk-worker.js' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  // What a module loads with import() at its first use (the AWS SDK, nodemailer, the MCP SDK) goes
  // into a chunk of its own beside main.js, parsed only by a process that uses it.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  target: 'node20',
  external: ['@electric-sql/pglite', '@electric-sql/pglite/*', '@fastify/swagger', '@fastify/swagger-ui'],
  // CommonJS dependencies call require() for Node's own modules, which an ES module lacks.
  banner: { js: "import { createRequire as __changeledgerRequire } from 'node:module';\nconst require = __changeledgerRequire(import.meta.url);" },
  // A smaller source to parse and to keep in memory. Identifiers are left as written, so stack
  // traces and error names read as in the sources.
  minifyWhitespace: true,
  minifySyntax: true,
  // Stack traces can still be read against the TypeScript: node --enable-source-maps.
  sourcemap: 'linked',
  legalComments: 'linked',
  plugins: [cookieRequire],
  logLevel: 'warning',
});
