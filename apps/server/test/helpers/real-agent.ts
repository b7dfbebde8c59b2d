import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedDatabase } from '../../src/db/seed.js';
import { buildApp, type App, type AppOptions } from '../../src/http/app.js';
import { SecretBox } from '../../src/lib/secret-box.js';
import { openTestDatabase } from './database.js';
import { ADMIN, client, signIn } from './test-app.js';
import { createAgent, createVm } from './vms.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const AGENT_MAIN = path.join(ROOT, 'apps/agent/src/main.ts');

export interface RealAgentServer {
  app: App;
  admin: ReturnType<typeof client>;
  /** The agent's work folder (robots may leave files there for the test). */
  workDir: string;
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
  const database = await openTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rota-data-'));
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'rota-agent-'));
  await seedDatabase(database.db, {
    adminAccess: ADMIN.access,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
  });
  const app = await buildApp({
    config: {
      publicUrl: 'http://127.0.0.1',
      SMTP_URL: undefined,
      MAIL_FROM: 'r@test',
      TRUST_PROXY: false,
    },
    db: database.db,
    events: database.events,
    webRoot: null,
    secretBox: new SecretBox(randomBytes(32)),
    dataDir,
    clock: options.clock,
    engine: {
      loop: true,
      intervalMs: 200,
      timings: { leaseSeconds: 5, heartbeatSeconds: 1, claimWaitSeconds: 25, reapMarginSeconds: 1 },
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const admin = client(app, { token: await signIn(app, ADMIN.access, ADMIN.password) });
  const vm = await createVm(admin, `${options.name} VM`);
  const { token } = await createAgent(admin, `${options.name} agent`, vm);
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
    async close() {
      agent.kill('SIGKILL');
      await app.close();
      await database.close();
      for (const dir of [dataDir, workDir]) await rm(dir, { recursive: true, force: true });
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
