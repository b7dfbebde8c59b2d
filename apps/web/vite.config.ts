import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/** The page a first visit ends on; its chunks are fetched alongside the entry. */
const FIRST_PAGE = 'src/features/auth/routes/sign-in-page.tsx';

/**
 * Adds `<link rel="modulepreload">` for the sign-in page's chunk and the chunks it imports
 * (the HTTP client, the contract's schemas, paths, shared by every page). Vite preloads only what
 * the entry imports statically; without this, a route's chunks are requested only once the entry
 * has downloaded and run the router, one round trip and one evaluation later (issue 16).
 */
function preloadFirstPage(): Plugin {
  return {
    name: 'rota-preload-first-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return;
        const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
        const page = chunks.find((c) => c.facadeModuleId?.endsWith(FIRST_PAGE));
        if (!page) throw new Error(`${FIRST_PAGE} is no longer a chunk of its own`);
        const byName = new Map(chunks.map((c) => [c.fileName, c]));
        const wanted = new Set<string>();
        const visit = (fileName: string) => {
          if (wanted.has(fileName) || fileName === entry.fileName) return;
          wanted.add(fileName);
          for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
        };
        visit(page.fileName);
        // Already preloaded by Vite as the entry's own imports.
        for (const imported of entry.imports) wanted.delete(imported);
        return [...wanted].map((fileName): HtmlTagDescriptor => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
          injectTo: 'head',
        }));
      },
    },
  };
}

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy next to every text file of the build, once, at
 * the highest levels, so the server (apps/server/src/http/console.ts, `preCompressed`) sends them
 * without compressing per request (issue 16). Files under 1 KiB and copies that would not be
 * smaller are skipped; the server then sends the file itself.
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  let outDir = 'dist';
  async function files(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { withFileTypes: true });
    const nested = await Promise.all(
      entries.map((entry) => {
        const full = path.join(dir, entry.name);
        // .vite/ holds the build manifest, which only the bundle-size test reads.
        if (entry.isDirectory()) return entry.name === '.vite' ? [] : files(full);
        return COMPRESSIBLE.test(entry.name) ? [full] : [];
      }),
    );
    return nested.flat();
  }
  return {
    name: 'rota-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // writeBundle, not closeBundle: that one also runs after a failed build, and would hide its
    // error behind a missing directory.
    async writeBundle() {
      for (const file of await files(outDir)) {
        if ((await stat(file)).size < 1024) continue;
        const content = await readFile(file);
        const [br, gzipped] = await Promise.all([
          brotli(content, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
              [zlib.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
          gz(content, { level: zlib.Z_BEST_COMPRESSION }),
        ]);
        if (br.length < content.length) await writeFile(`${file}.br`, br);
        if (gzipped.length < content.length) await writeFile(`${file}.gz`, gzipped);
      }
    },
  };
}

// The contract's package `exports` points at its built dist; bundling its source instead keeps
// the console in step with contract edits without a rebuild (tsc still reads the dist types).
const contractSource = fileURLToPath(
  new URL('../../packages/contract/src/index.ts', import.meta.url),
);

const apiProxy = { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } };

export default defineConfig({
  plugins: [react(), preloadFirstPage(), precompress()],
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
