#!/usr/bin/env node
/**
 * The browser tests in shards that run at once, each against a server of its own (its own port
 * and data folder, so no shard sees another's rows): most of a browser test is waiting for a
 * page, a server or a robot, so two shards on two cores take little more than half the time of
 * one. E2E_SHARDS picks how many (2; 1 runs Playwright as it is). Extra arguments go to
 * Playwright, e.g. `npm run test:e2e -- e2e/mfa.spec.ts`.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const shards = Math.max(1, Number(process.env.E2E_SHARDS ?? 2) || 1);
const args = process.argv.slice(2);
const playwright = createRequire(import.meta.url).resolve('@playwright/test/cli');
const basePort = Number(process.env.E2E_PORT ?? 3100);
const baseDir = process.env.E2E_DIR ?? '.e2e';

function run(index) {
  const shardArgs = shards > 1 ? [`--shard=${index + 1}/${shards}`] : [];
  // Ports a hundred apart: each shard's server and its OpenID provider (port + 30) stay apart.
  const env = {
    ...process.env,
    E2E_PORT: String(basePort + index * 100),
    E2E_DIR: shards > 1 ? `${baseDir}-${index + 1}` : baseDir,
  };
  const child = spawn(process.execPath, [playwright, 'test', ...shardArgs, ...args], {
    env,
    stdio: shards > 1 ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  if (shards > 1) {
    const prefix = `[${index + 1}/${shards}] `;
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) process.stdout.write(prefix + line + '\n');
      });
      stream.on('end', () => rest && process.stdout.write(prefix + rest + '\n'));
    }
  }
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ? 1 : code)));
}

const codes = await Promise.all(Array.from({ length: shards }, (_, i) => run(i)));
const failed = codes.filter((code) => code !== 0).length;
if (shards > 1)
  console.log(failed ? `${failed} of ${shards} shards failed` : `all ${shards} shards passed`);
process.exit(failed ? 1 : 0);
