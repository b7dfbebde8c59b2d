/**
 * Times a restart the way an operator does one: `npm start` from the command to
 * `/api/health` answering, with the embedded database already created and the build up to date;
 * and its parts: the build check alone (`scripts/build-if-changed.mjs`) and the server alone
 * (`node apps/server/dist/main.js`) to health. Same for `npm run agent -- --help`.
 *
 *   npm run build && node --import tsx bench/restart.ts
 *
 * ROTA_DIR runs it in another checkout (a clean clone, so edits in progress here do not trigger
 * builds); BENCH_RUNS (5) repetitions each, interleaved; port 3177 (BENCH_PORT).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(process.env.ROTA_DIR ?? fileURLToPath(new URL('..', import.meta.url)));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 3177);
const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'rota-restart-'));

const env = {
  ...process.env,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATA_DIR,
  DATABASE_URL: '',
  LOG_LEVEL: 'warn',
  ROTA_ADMIN_PASSWORD: 'bench-password-1',
};

async function healthy(): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok;
  } catch {
    return false;
  }
}

/** Seconds from spawning `command` to health answering; then the process group is ended. */
async function timeToHealth(command: string, args: string[]): Promise<number> {
  if (await healthy()) throw new Error(`port ${PORT} already answers`);
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env, stdio: 'ignore', detached: true });
  let exited = false;
  child.once('exit', () => (exited = true));
  while (!(await healthy())) {
    if (exited) throw new Error(`${command} ${args.join(' ')} exited before answering`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (performance.now() - started) / 1000;
  process.kill(-child.pid!, 'SIGTERM');
  await new Promise<void>((resolve) => (exited ? resolve() : child.once('exit', () => resolve())));
  while (await healthy()) await new Promise((r) => setTimeout(r, 20));
  return seconds;
}

function timeCommand(command: string, args: string[]): number {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: ROOT, env, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}`);
  return (performance.now() - started) / 1000;
}

const range = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `${median.toFixed(2)} s (${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)})`;
};

const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
// Brings the build stamps up to date (a first run builds), then the first start creates the
// database and seeds it: neither is a restart.
timeCommand('node', ['scripts/build-if-changed.mjs', 'contract', 'web', 'server', 'agent']);
await timeToHealth('node', ['apps/server/dist/main.js']);

const figures: Record<string, number[]> = {
  '`npm start` (restart)': [],
  'build check alone': [],
  '`node apps/server/dist/main.js` to health': [],
  '`npm run agent -- --help`': [],
};
for (let i = 0; i < RUNS; i++) {
  figures['`npm start` (restart)']!.push(await timeToHealth('npm', ['start']));
  figures['build check alone']!.push(
    timeCommand('node', ['scripts/build-if-changed.mjs', 'contract', 'web', 'server', 'agent']),
  );
  figures['`node apps/server/dist/main.js` to health']!.push(
    await timeToHealth('node', ['apps/server/dist/main.js']),
  );
  figures['`npm run agent -- --help`']!.push(timeCommand('npm', ['run', 'agent', '--', '--help']));
}
const loadAfter = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
rmSync(DATA_DIR, { recursive: true, force: true });

console.log(
  `\n${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${RUNS} runs, ` +
    `load average ${loadBefore} before, ${loadAfter} after\n`,
);
console.log('| command | median (min–max) |\n| --- | --- |');
for (const [label, values] of Object.entries(figures))
  console.log(`| ${label} | ${range(values)} |`);
