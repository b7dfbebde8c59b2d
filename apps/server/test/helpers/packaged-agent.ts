import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { seedDatabase } from '../../src/db/seed.js';
import { buildApp, type App, type AppOptions } from '../../src/http/app.js';
import { SecretBox } from '../../src/lib/secret-box.js';
import type { TarEntry } from './archives.js';
import { tarGz } from './archives.js';
import { openTestDatabase } from './database.js';
import { ACTIVITY } from './engine.js';
import { ADMIN, client, signIn } from './test-app.js';
import { createAgent, createVm } from './vms.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
/** What `npm run package:agent` leaves (apps/agent/scripts/package-agent.mjs). */
export const RELEASE = path.join(ROOT, 'apps/agent/release');

export interface ReleaseManifest {
  version: string;
  /** The Node version the executables are built on. */
  node: string;
  files: Record<'linux-x64' | 'win-x64', { file: string; sha256: string; bytes: number }>;
}

export function releaseManifest(): ReleaseManifest | undefined {
  const file = path.join(RELEASE, 'manifest.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ReleaseManifest) : undefined;
}

export interface AgentServer {
  app: App;
  admin: ReturnType<typeof client>;
  base: string;
  agentId: number;
  token: string;
  close(): Promise<void>;
}

/**
 * A listening app (engine loop on, short leases) on a fresh seeded database, one VM, one agent:
 * what the tests with real agent processes (packaged or from source) stand on.
 */
export async function startAgentServer(
  name: string,
  options: { agentReleaseDir?: string; clock?: AppOptions['clock'] } = {},
): Promise<AgentServer> {
  const database = await openTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rota-data-'));
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
      AGENT_RELEASE_DIR: options.agentReleaseDir,
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
  const vm = await createVm(admin, `${name} VM`);
  const agent = await createAgent(admin, `${name} agent`, vm);
  return {
    app,
    admin,
    base,
    agentId: agent.rota_nodes_id,
    token: agent.token,
    async close() {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A robot whose current version is `entries` packed as .tar.gz, run by `executor`. */
export async function createPackagedRobot(
  server: AgentServer,
  name: string,
  executor: string,
  entries: TarEntry[],
): Promise<number> {
  const created = await server.admin.post('/api/rota/robot/api/v1/create', { name, executor });
  expect(created.status).toBe(201);
  const robot = created.body.data.rota_robots_id as number;
  const form = new FormData();
  form.set('rota_robots_id', String(robot));
  form.set('version', '1.0.0');
  form.set('file', new Blob([tarGz(entries)]), 'robot.tar.gz');
  const token = await signIn(server.app, ADMIN.access, ADMIN.password);
  const upload = await fetch(`${server.base}/api/rota/robot/version/api/v1/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(upload.status).toBe(201);
  const version = ((await upload.json()) as { data: { rota_robot_versions_id: number } }).data;
  const current = await server.admin.put('/api/rota/robot/version/api/v1/update', {
    id: version.rota_robot_versions_id,
    current: true,
  });
  expect(current.status).toBe(204);
  return robot;
}

export async function logLines(server: AgentServer, id: number) {
  const res = await server.admin.post(`${ACTIVITY}/logs`, { id, limit: 5000 });
  return (res.body.data as { line: string; stream: string }[]).map((l) => `${l.stream}: ${l.line}`);
}

export interface RunningExecutable {
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts a program with exactly the environment given (nothing inherited from the test). */
export function startExecutable(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): RunningExecutable {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  return { process: child, output: () => output, exited };
}
