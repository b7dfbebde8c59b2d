import { readFileSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import MagicString from 'magic-string';
import type { ChunkingContext } from 'rolldown';
import type { HtmlTagDescriptor, Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { ModuleNeeds } from './chunk-groups';

/** The page a first visit ends on; its chunks are fetched alongside the entry. */
const FIRST_PAGE = 'src/features/auth/routes/sign-in-page.tsx';
/** What every signed-in page waits for first; `shell.html` preloads it instead. */
const SHELL = 'src/features/shell/routes/shell-layout.tsx';
/** index.html for a browser that holds a session (apps/server/src/http/console.ts). */
const SIGNED_IN_HTML = 'shell.html';
/** Each signed-in page's own chunks by route path, which the server adds to `shell.html`. */
const PAGE_PRELOADS = 'page-preloads.json';
/** Where the shell's pages are listed with the module each loads. */
const ROUTES_FILE = fileURLToPath(new URL('./src/app/routes.tsx', import.meta.url));

/**
 * The shell's pages in `routes.tsx` (`SHELL_PAGES` and `SHELL_DETAIL_PAGES`): each route path
 * (`path` where the entry has one, else `route`) and its page module, relative to the app root.
 */
function shellPagesOf(source: string): { path: string; module: string }[] {
  const entry =
    /\{\s*(?:path:\s*'([^']+)',\s*)?route:\s*'([^']+)',\s*load:\s*\(\)\s*=>\s*import\('([^']+)'\)/g;
  return [...source.matchAll(entry)].map(([, detailPath, route, module]) => ({
    path: detailPath ?? route!,
    module: `${path.posix.join('src/app', module!)}.tsx`,
  }));
}

type BundleChunk = {
  type: string;
  fileName: string;
  isEntry?: boolean;
  imports?: string[];
  facadeModuleId?: string | null;
};
type Bundle = Record<string, BundleChunk>;

/** A route module's chunk and, recursively, the chunks it imports, less the entry's. */
function chunksOf(bundle: Bundle, module: string): string[] {
  const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
  const entry = chunks.find((c) => c.isEntry);
  const page = chunks.find((c) => c.facadeModuleId?.endsWith(module));
  if (!page || !entry) throw new Error(`${module} is no longer a chunk of its own`);
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const wanted = new Set<string>();
  const visit = (fileName: string) => {
    if (wanted.has(fileName) || fileName === entry.fileName) return;
    wanted.add(fileName);
    for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
  };
  visit(page.fileName);
  // Already preloaded by Vite as the entry's own imports.
  for (const imported of entry.imports ?? []) wanted.delete(imported);
  return [...wanted];
}

const preloadLink = (fileName: string) =>
  `<link rel="modulepreload" crossorigin href="/${fileName}">`;

/**
 * Adds `<link rel="modulepreload">` for the sign-in page's chunk and the chunks it imports
 * (the HTTP client, the contract's schemas, paths, shared by every page). Vite preloads only what
 * the entry imports statically; without this, a route's chunks are requested only once the entry
 * has downloaded and run the router, one round trip and one evaluation later.
 *
 * A signed-in visit wants the shell's chunks instead, and the sign-in page's would only compete
 * with them for the network: `shell.html` is the same page preloading the shell, which the server
 * sends when the request carries a session cookie.
 */
function preloadFirstPage(): Plugin {
  return {
    name: 'rota-preload-first-page',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return;
        return chunksOf(bundle as Bundle, FIRST_PAGE).map((fileName): HtmlTagDescriptor => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
          injectTo: 'head',
        }));
      },
    },
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') throw new Error('index.html is missing from the build');
      let html = String(index.source);
      const signIn = chunksOf(bundle as unknown as Bundle, FIRST_PAGE);
      const signInLinks = new Set(signIn.map(preloadLink));
      html = html
        .split('\n')
        .filter((line) => !signInLinks.has(line.trim()))
        .join('\n');
      const shell = chunksOf(bundle as unknown as Bundle, SHELL).map(preloadLink);
      html = html.replace('</head>', `  ${shell.join('\n    ')}\n  </head>`);
      if (
        signIn.some((fileName) => html.includes(fileName) && !shell.includes(preloadLink(fileName)))
      )
        throw new Error(`${SIGNED_IN_HTML} still preloads the sign-in page`);
      this.emitFile({ type: 'asset', fileName: SIGNED_IN_HTML, source: html });

      // A signed-in page's chunks are otherwise requested only once the entry has run the router
      // and the shell: one round trip and two evaluations after the page was asked for.
      const pages = shellPagesOf(readFileSync(ROUTES_FILE, 'utf8'));
      if (pages.length < 10)
        throw new Error(
          `${ROUTES_FILE} lists ${pages.length} shell pages: has its format changed?`,
        );
      const inShell = new Set(chunksOf(bundle as unknown as Bundle, SHELL));
      const preloads = Object.fromEntries(
        pages.map(({ path: route, module }) => [
          route,
          chunksOf(bundle as unknown as Bundle, module).filter((file) => !inShell.has(file)),
        ]),
      );
      this.emitFile({ type: 'asset', fileName: PAGE_PRELOADS, source: JSON.stringify(preloads) });
    },
  };
}

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy next to every text file of the build, once, at
 * the highest levels, so the server (apps/server/src/http/console.ts, `preCompressed`) sends them
 * without compressing per request. Files under 1 KiB and copies that would not be
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

const CONTRACT_SOURCE = /[\\/]packages[\\/]contract[\\/]src[\\/][^\\/]+\.ts$/;

/**
 * The contract declares its schemas at the top of its modules (`export const robotSchema =
 * z.object(…)`, `listQuerySchema.extend(…)`), and a bundler keeps every call it cannot prove
 * free of side effects: the shell, which needs a handful of constants and the live events'
 * schema, evaluated most of the contract's schemas before its first paint (≈100 ms of a phone's).
 * Each top-level declaration's initial call is marked pure here, so a schema nothing
 * uses is dropped; `manualPureFunctions: ['z']` below does the same for the calls inside it.
 * Sound because the contract's modules only declare: nothing there runs for its effect.
 */
function pureContractDeclarations(): Plugin {
  return {
    name: 'rota-pure-contract-declarations',
    apply: 'build',
    enforce: 'post',
    transform: {
      filter: { id: CONTRACT_SOURCE },
      handler(code) {
        const program = this.parse(code);
        const out = new MagicString(code);
        for (const statement of program.body) {
          const declaration =
            statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
          if (declaration?.type !== 'VariableDeclaration') continue;
          for (const { init } of declaration.declarations) {
            if (init?.type === 'CallExpression' || init?.type === 'NewExpression')
              out.appendLeft(init.start, '/* @__PURE__ */ ');
          }
        }
        return { code: out.toString(), map: out.generateMap({ hires: true }) };
      },
    },
  };
}

// The contract's package `exports` points at its built dist; bundling its source instead keeps
// the console in step with contract edits without a rebuild (tsc still reads the dist types).
const contractSource = fileURLToPath(
  new URL('../../packages/contract/src/index.ts', import.meta.url),
);

/**
 * The console's own modules run nothing on import except these: the entry, zod's setup, the
 * i18n set-up and each feature's `i18n.ts` (registers its translations, often imported bare).
 * Telling the bundler so lets it drop what a feature's `index.ts` re-exports but the importer does
 * not use: without it, the shell's import of a feature's query keys pulled that feature's tables,
 * forms and date inputs into the shell's first download.
 */
const SOURCE_DIR = fileURLToPath(new URL('./src/', import.meta.url));
const SIDE_EFFECTS = /(?:\/main\.tsx|\/zod-config\.ts|\/i18n\.ts)$/;
function moduleSideEffects(id: string): boolean | undefined {
  if (!id.startsWith(SOURCE_DIR) || !/\.tsx?$/.test(id)) return undefined;
  return SIDE_EFFECTS.test(id);
}

/** Libraries of small modules used across pages; the date pickers stay apart. */
const UI_LIBRARIES =
  /[\\/]node_modules[\\/](?:@mantine[\\/](?:core|hooks)|@tabler|@floating-ui|@tanstack)[\\/]/;

const ROUTE_MODULE =
  /[\\/]src[\\/](?:features[\\/][^\\/]+[\\/]routes[\\/][^\\/]+|components[\\/]not-found)\.tsx$/;
const QUERY_KEYS_AND_PATHS = /[\\/]src[\\/].*[\\/](?:keys|paths)\.ts$/;

type Group = 'sign-in-deps' | 'shell-deps' | 'kit' | 'zod' | 'ui' | 'app';
let needs: { signIn: Set<string>; shell: Set<string>; kit: Set<string> } | undefined;

/**
 * The console's own modules that at least half of the shell's pages need (the page header, the
 * list state, the data table, the form drawer, the confirm dialog…): one chunk instead of one each.
 */
function kitOf(graph: ModuleNeeds, shell: Set<string>): Set<string> {
  const pages = shellPagesOf(readFileSync(ROUTES_FILE, 'utf8'));
  const count = new Map<string, number>();
  for (const page of pages) {
    for (const id of graph.closure(path.join(SOURCE_DIR, '..', page.module))) {
      if (id.startsWith(SOURCE_DIR) && !shell.has(id)) count.set(id, (count.get(id) ?? 0) + 1);
    }
  }
  // A group takes what its modules import along: a form module in the kit would bring zod, and
  // every page would evaluate it before painting, the dashboard included, which has no form.
  // Forms and zod load with the pages that have them.
  return new Set(
    [...count]
      .filter(([id, n]) => n * 2 >= pages.length && ![...graph.closure(id)].some(isZod))
      .map(([id]) => id),
  );
}

const isZod = (id: string) => /[\\/]node_modules[\\/]zod[\\/]/.test(id);

const FORM_VALIDATION =
  /[\\/](?:node_modules[\\/](?:zod|@hookform[\\/]resolvers)[\\/]|src[\\/]lib[\\/]form-schema\.ts$)/;

/** A module of the contract that declares schemas (it imports zod), not only constants. */
function declaresSchemas(id: string, ctx: ChunkingContext): boolean {
  return CONTRACT_SOURCE.test(id) && !!ctx.getModuleInfo(id)?.importedIds.some(isZod);
}

/** The chunk group of a module (null: automatic splitting), by what needs it. */
function groupOf(group: Group) {
  return (id: string, ctx: ChunkingContext): string | null => {
    if (!needs) {
      const graph = new ModuleNeeds(ctx, { '@rota/contract': contractSource });
      const shell = graph.closure(path.join(SOURCE_DIR, '..', SHELL));
      needs = {
        signIn: graph.closure(path.join(SOURCE_DIR, '..', FIRST_PAGE)),
        shell,
        kit: kitOf(graph, shell),
      };
    }
    // What the entry needs is already in the `initial` group, which comes first.
    if (ROUTE_MODULE.test(id)) return null;
    const wanted =
      group === 'sign-in-deps'
        ? needs.signIn.has(id)
        : group === 'shell-deps'
          ? needs.shell.has(id)
          : group === 'kit'
            ? needs.kit.has(id)
            : group === 'zod'
              ? FORM_VALIDATION.test(id)
              : group === 'ui'
                ? UI_LIBRARIES.test(id)
                : QUERY_KEYS_AND_PATHS.test(id) ||
                  (CONTRACT_SOURCE.test(id) && !declaresSchemas(id, ctx));
    return wanted ? group : null;
  };
}

const apiProxy = { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } };

export default defineConfig({
  plugins: [react(), pureContractDeclarations(), preloadFirstPage(), precompress()],
  resolve: {
    alias: {
      '@rota/contract': contractSource,
    },
  },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // test/bundle-size.test.ts reads the manifest to weigh the sign-in page's initial JavaScript.
    manifest: true,
    // The entry holds react-dom, the router, Mantine's core, zod, i18next and the contract (≈530 kB
    // raw); what matters is the gzipped weight of the sign-in page, which test/bundle-size.test.ts
    // holds under 256 KB.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      treeshake: { moduleSideEffects, manualPureFunctions: ['z'] },
      output: {
        codeSplitting: {
          // Everything the entry imports statically is downloaded up front anyway: one chunk
          // instead of the several that automatic splitting makes of it as route chunks come and
          // go (each split costs gzip context and import glue on the sign-in page's budget).
          groups: [
            { name: 'initial', tags: ['$initial'] },
            // Few files instead of many: automatic splitting made ≈60 chunks of a few
            // hundred bytes each of what the shell needs (keys, paths, hooks, Mantine's parts,
            // icons), and a phone on HTTP/1.1 (and Lighthouse's mobile simulation) fetches six
            // files at a time, a round trip each: the dashboard waited for ten such rounds before
            // it could paint. What the sign-in page needs is one chunk, what the shell needs
            // besides another; the UI libraries' other parts and the features' query keys and
            // paths one each. Route modules stay chunks of their own (the router loads them).
            { name: groupOf('sign-in-deps') },
            { name: groupOf('shell-deps') },
            { name: groupOf('kit') },
            // The features' keys and paths, and the contract's modules that declare no schema
            // (statuses, permissions, calendar days): small, and wanted by most pages. Before `zod`,
            // since a group takes along what its modules import.
            { name: groupOf('app') },
            // zod and the form resolver: the pages with forms need them before they paint, the
            // dashboard not at all. The contract's schema modules are split by the
            // pages that use them: one chunk of them all made robots evaluate every schema.
            { name: groupOf('zod') },
            { name: groupOf('ui') },
          ],
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
