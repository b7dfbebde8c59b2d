import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The contract's package `exports` points at its built dist; bundling its source instead keeps
// the console in step with contract edits without a rebuild (tsc still reads the dist types).
const contractSource = fileURLToPath(
  new URL('../../packages/contract/src/index.ts', import.meta.url),
);

const apiProxy = { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } };

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@rota/contract': contractSource,
      // recharts' decimal.js-light: its CommonJS `main` finds the global object through
      // `Function('return this')()`, which the console's CSP forbids; the ES module build does
      // not (issue 11: no eval in the bundle).
      'decimal.js-light': fileURLToPath(
        new URL('../../node_modules/decimal.js-light/decimal.mjs', import.meta.url),
      ),
    },
  },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // test/bundle-size.test.ts reads the manifest to weigh the sign-in page's initial JavaScript.
    manifest: true,
    // The entry holds react-dom, the router, Mantine's core, zod, i18next and the contract (≈640 kB
    // raw); what matters is the gzipped weight of the sign-in page, which test/bundle-size.test.ts
    // holds under 250 KB. The dashboard's chart chunk (recharts) is ≈420 kB raw.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically is downloaded up front anyway: one chunk
          // instead of the several that automatic splitting makes of it as route chunks come and
          // go (each split costs gzip context and import glue on the sign-in page's budget).
          groups: [{ name: 'initial', tags: ['$initial'] }],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    include: ['test/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // Page tests wait for lazy route chunks (see test/setup.ts); 5 s is too tight on 2 cores.
    testTimeout: 15_000,
    unstubGlobals: true,
  },
});
