/**
 * Rota as an operator runs it (`npm start`: `node <flags> apps/server/dist/main.js`, the built
 * server, no TypeScript loader) for benchmarks that measure the server's memory: a loader such as
 * tsx adds a thread and compiled sources of its own. Needs `npm run build -w @rota/server` first.
 * The Node flags are read from the root package.json's `start` script; BENCH_NODE_FLAGS, when set
 * (even empty), replaces them to compare others. Listens on a free port of 127.0.0.1 with the
 * open-files soft limit raised to the hard one.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../apps/server/dist/main.js', import.meta.url));

/** The flags `npm start` gives node (`node --a --b apps/server/dist/main.js` → `--a --b`). */
export function startScriptNodeFlags(): string[] {
  const manifest = JSON.parse(
    readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'),
  ) as { scripts: { start: string } };
  const words = manifest.scripts.start.split(/\s+/);
  if (words[0] !== 'node') throw new Error(`unexpected start script: ${manifest.scripts.start}`);
  return words.slice(1).filter((word) => word.startsWith('--'));
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startProductionServer(
  databaseUrl: string,
  env: NodeJS.ProcessEnv = {},
  /** Node flags added to npm start's (or BENCH_NODE_FLAGS'). */
  extraFlags: string[] = [],
) {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build -w @rota/server`);
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rota-bench-'));
  const proc = spawn(
    '/bin/sh',
    [
      '-c',
      'ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"',
      process.execPath,
      // BENCH_NODE_FLAGS: Node or V8 flags to compare (e.g. a heap setting) instead of npm start's.
      ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? startScriptNodeFlags()),
      ...extraFlags,
      MAIN,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ...env,
      },
    },
  );
  const exited = new Promise<number | null>((resolve) => proc.on('close', resolve));
  // main.ts prints "Rota … is running at …" once it listens.
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('is running at')) resolve();
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}):\n${seen}`)));
  });
  if (process.env.BENCH_SERVER_STDOUT) proc.stdout!.pipe(process.stderr);
  else proc.stdout!.resume();
  return {
    pid: proc.pid!,
    address: `http://127.0.0.1:${port}`,
    async stop() {
      proc.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
