/**
 * The server's start, bundled or not: `node apps/server/dist/main.js` (the esbuild bundle) beside
 * `node apps/server/dist/main-modules.js` (tsc's module graph, the same code), each from the
 * spawn to `/api/health` answering, on an existing embedded database and, with DATABASE_URL, an
 * existing PostgreSQL. Interleaved, BENCH_RUNS (5) each, after one start that creates the database.
 *
 *   npm run build -w @rota/server && node --import tsx bench/server-bundle.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 3178);
const CONTENDERS = {
  bundle: 'apps/server/dist/main.js',
  modules: 'apps/server/dist/main-modules.js',
} as const;

async function healthy(): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok;
  } catch {
    return false;
  }
}

async function timeToHealth(file: string, env: NodeJS.ProcessEnv): Promise<number> {
  if (await healthy()) throw new Error(`port ${PORT} already answers`);
  const started = performance.now();
  const child = spawn(process.execPath, [file], { cwd: ROOT, env, stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => (exited = true));
  while (!(await healthy())) {
    if (exited) throw new Error(`${file} exited before answering`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const ms = performance.now() - started;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await gone;
  return ms;
}

const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
};

async function race(database: string, databaseUrl: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rota-bundle-'));
  const env = {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    ROTA_ADMIN_PASSWORD: 'bench-password-1',
  };
  try {
    await timeToHealth(CONTENDERS.bundle, env);
    const times: Record<keyof typeof CONTENDERS, number[]> = { bundle: [], modules: [] };
    for (let i = 0; i < RUNS; i += 1) {
      const order = (i % 2 === 0 ? ['modules', 'bundle'] : ['bundle', 'modules']) as const;
      for (const name of order) times[name].push(await timeToHealth(CONTENDERS[name], env));
    }
    const bundle = summary(times.bundle);
    const modules = summary(times.modules);
    const fmt = (s: ReturnType<typeof summary>) =>
      `${s.min.toFixed(0)} / ${s.median.toFixed(0)} / ${s.max.toFixed(0)} ms`;
    console.log(`${database}: bundle ${fmt(bundle)}; modules ${fmt(modules)} (min / median / max)`);
    console.log(
      `${database}: bundle / modules, medians: ${(bundle.median / modules.median).toFixed(2)}×`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await race('embedded', '');
if (process.env.DATABASE_URL) await race('PostgreSQL', process.env.DATABASE_URL);
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
