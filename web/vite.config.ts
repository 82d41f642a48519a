import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The build runs from the repository root (`vite build --config web/vite.config.ts`),
// so the root is pinned to this folder rather than to the working directory.
const webRoot = fileURLToPath(new URL('.', import.meta.url));

// `vite --config web/vite.config.ts` (dev) proxies the API to a locally running server;
// override the target when the server listens elsewhere.
const apiTarget = process.env['CHANGELEDGER_API_URL'] ?? 'http://127.0.0.1:8080';

export const config = defineConfig({
  root: webRoot,
  base: '/',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    // ELK (the dependency map's layout) is one 1.5 MB chunk, loaded only when a map is
    // drawn; the app's own chunk stays far below this.
    chunkSizeWarningLimit: 1600,
    // Rolldown reports how long plugins took whenever they took a noticeable share; `npm start`
    // would print that report between the build and the server's start-up block.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
    },
  },
});

// Vite only discovers a config through its default export; the named export above
// keeps the house rule for anything that imports the config programmatically.
export default config;
