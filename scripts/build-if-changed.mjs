#!/usr/bin/env node
/**
 * Builds the named workspaces only when their sources changed since their last build, so
 * `npm start` and `npm run agent` restart in seconds instead of rebuilding everything.
 *
 *   node scripts/build-if-changed.mjs contract archive-check web server agent
 *
 * A workspace's stamp is a SHA-256 of the contents of its inputs (its sources, build configs
 * and package.json, the contract's sources it compiles against, and the root package-lock.json);
 * it is written under node_modules/.cache/rota-build/ after a successful build. Contents rather
 * than mtimes: a `git checkout` that brings back the same files does not force a rebuild, and
 * an edit always does. A missing output (fresh clone, deleted dist) always builds.
 * ROTA_FORCE_BUILD=1 or --force builds regardless: `npm run build` is this script with --force,
 * so the stamps it writes let the next `npm start` skip what it just built.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampDir = path.join(root, 'node_modules', '.cache', 'rota-build');

const CONTRACT_INPUTS = [
  'packages/contract/src',
  'packages/contract/package.json',
  'packages/contract/tsconfig.json',
  'packages/contract/tsconfig.build.json',
];

const ARCHIVE_CHECK_INPUTS = [
  'packages/archive-check/src',
  'packages/archive-check/package.json',
  'packages/archive-check/tsconfig.json',
  'packages/archive-check/tsconfig.build.json',
];

/** What each workspace's build reads and the file its build leaves behind. */
const TARGETS = {
  contract: {
    workspace: '@rota/contract',
    inputs: CONTRACT_INPUTS,
    output: 'packages/contract/dist/index.js',
  },
  'archive-check': {
    workspace: '@rota/archive-check',
    inputs: ARCHIVE_CHECK_INPUTS,
    output: 'packages/archive-check/dist/index.js',
  },
  web: {
    workspace: '@rota/web',
    inputs: [
      ...CONTRACT_INPUTS,
      'apps/web/src',
      'apps/web/public',
      'apps/web/scripts',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      'apps/web/tsconfig.json',
      'apps/web/tsconfig.node.json',
    ],
    output: 'apps/web/dist/index.html',
  },
  server: {
    workspace: '@rota/server',
    inputs: [
      ...CONTRACT_INPUTS,
      ...ARCHIVE_CHECK_INPUTS,
      'apps/server/src',
      'apps/server/package.json',
      'apps/server/tsconfig.json',
      'apps/server/tsconfig.build.json',
    ],
    output: 'apps/server/dist/main.js',
  },
  agent: {
    workspace: '@rota/agent',
    inputs: [
      ...CONTRACT_INPUTS,
      ...ARCHIVE_CHECK_INPUTS,
      'apps/agent/src',
      'apps/agent/package.json',
      'apps/agent/tsconfig.json',
      'apps/agent/tsconfig.build.json',
    ],
    output: 'apps/agent/dist/main.js',
  },
  cli: {
    workspace: '@rota/cli',
    inputs: [
      'apps/cli/src',
      'apps/cli/package.json',
      'apps/cli/tsconfig.json',
      'apps/cli/tsconfig.build.json',
    ],
    output: 'apps/cli/dist/main.js',
  },
};

function listFiles(relative, into) {
  const absolute = path.join(root, relative);
  if (!existsSync(absolute)) return into;
  if (statSync(absolute).isDirectory()) {
    for (const entry of readdirSync(absolute).sort()) listFiles(path.join(relative, entry), into);
  } else {
    into.push(relative);
  }
  return into;
}

function stampOf(inputs) {
  const hash = createHash('sha256');
  const files = [...inputs, 'package-lock.json'].flatMap((input) => listFiles(input, []));
  for (const file of files) {
    hash.update(file.split(path.sep).join('/'));
    hash.update('\0');
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const args = process.argv.slice(2);
const force = args.includes('--force') || process.env.ROTA_FORCE_BUILD === '1';
const names = args.filter((arg) => arg !== '--force');
if (names.length === 0 || names.some((name) => !(name in TARGETS))) {
  console.error(`usage: build-if-changed.mjs [--force] <${Object.keys(TARGETS).join('|')}>...`);
  process.exit(2);
}

mkdirSync(stampDir, { recursive: true });
for (const name of names) {
  const target = TARGETS[name];
  const stampFile = path.join(stampDir, `${name}.sha256`);
  const stamp = stampOf(target.inputs);
  const previous = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : null;
  const built = existsSync(path.join(root, target.output));
  if (built && previous === stamp && !force) {
    console.log(`${name}: up to date, not rebuilt`);
    continue;
  }
  const why = force
    ? 'a full build'
    : !built
      ? 'not built yet'
      : previous === null
        ? 'no stamp yet'
        : 'sources changed';
  console.log(`${name}: ${why}, building`);
  const result = spawnSync('npm', ['run', 'build', '-w', target.workspace], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stampFile, `${stamp}\n`);
}
