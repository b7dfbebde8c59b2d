import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App, AppOptions } from '../../src/http/app.js';
import { startAgentServer } from './packaged-agent.js';
import type { client } from './test-app.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const AGENT_MAIN = path.join(ROOT, 'apps/agent/src/main.ts');

export interface RealAgentServer {
  app: App;
  admin: ReturnType<typeof client>;
  /** The agent's work folder (robots may leave files there for the test). */
  workDir: string;
  /** The server's address, and the agent's token (for the agent's other commands). */
  base: string;
  token: string;
  close(): Promise<void>;
}

/**
 * A listening app (engine loop on, short leases) on a fresh seeded database, with one VM and
 * one real agent process (apps/agent through tsx) working for it: what the integration tests
 * with real robot processes share. `close` kills the agent and removes what it made.
 */
export async function startServerWithRealAgent(options: {
  clock?: AppOptions['clock'];
  name: string;
  agentArgs?: string[];
}): Promise<RealAgentServer> {
  const server = await startAgentServer(options.name, { clock: options.clock });
  const { app, admin, base, token } = server;
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'rota-agent-'));
  const agent: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      AGENT_MAIN,
      '--server',
      base,
      '--work-dir',
      workDir,
      ...(options.agentArgs ?? []),
    ],
    { cwd: ROOT, env: { ...process.env, ROTA_AGENT_TOKEN: token }, stdio: 'ignore' },
  );
  return {
    app,
    admin,
    workDir,
    base,
    token,
    async close() {
      agent.kill('SIGKILL');
      await server.close();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** Polls `probe` until it answers something, or fails after `ms` naming what it waited for. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One of the agent's other commands (`rota-agent run …`), through tsx: its exit code and output. */
export function agentCommand(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', AGENT_MAIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
