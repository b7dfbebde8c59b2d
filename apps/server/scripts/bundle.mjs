#!/usr/bin/env node
/**
 * Bundles the server into dist/main.js (after tsc wrote dist/): one file for Rota's own modules
 * and the workspace packages it uses, so a start reads one file instead of resolving and
 * loading some three hundred. Third-party packages stay in node_modules (external): they keep
 * their own files (PGlite's WebAssembly, pino's workers) where they expect them.
 */
import { readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dependenciesOf = (dir) =>
  Object.keys(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).dependencies ?? {});
// The server's and its workspace packages' (the archive check's tar and yauzl) own packages.
const external = [
  ...dependenciesOf(root),
  ...dependenciesOf(path.join(root, '../../packages/contract')),
  ...dependenciesOf(path.join(root, '../../packages/archive-check')),
].filter((name) => !name.startsWith('@rota/'));

// tsc's entry stays as dist/main-modules.js: the same server from its module graph, which
// bench/server-bundle.ts starts beside the bundle.
renameSync(path.join(root, 'dist/main.js'), path.join(root, 'dist/main-modules.js'));
await build({
  entryPoints: [path.join(root, 'src/main.ts')],
  outfile: path.join(root, 'dist/main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  // A package and its subpaths (drizzle-orm/pg-core): left to Node.
  external: external.flatMap((name) => [name, `${name}/*`]),
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});
