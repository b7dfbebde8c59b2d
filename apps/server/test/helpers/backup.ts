import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { App } from '../../src/http/app.js';
import { runNow, simulatedAgent } from './engine.js';
import { createUser } from './fixtures.js';
import { multipart } from './multipart.js';
import { robotPackage } from './robot-package.js';
import { createRobot } from './robots.js';
import { client, type TestApp } from './test-app.js';
import { createAgent, createVm } from './vms.js';

const SERVER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(SERVER_ROOT, 'src/backup-cli.ts');

/** `npm run backup|restore` as an operator runs it: the CLI in a process of its own. */
export function runBackupCli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: SERVER_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * Every row of every table of the schema, each as its JSON text, sorted: two databases with
 * the same map hold the same data (bytea as hex, timestamps to the microsecond).
 */
export async function everyRow(query: Query): Promise<Map<string, string[]>> {
  const tables = await query(
    `select table_schema || '.' || table_name as name from information_schema.tables
      where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`,
  );
  const result = new Map<string, string[]>();
  for (const { name } of tables.rows as { name: string }[]) {
    const [schema, table] = name.split('.');
    const rows = await query(
      `select to_jsonb(t)::text as row from "${schema}"."${table}" t order by 1`,
    );
    result.set(
      name,
      rows.rows.map((r) => r.row as string),
    );
  }
  return result;
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export interface Workload {
  robotId: number;
  versionId: number;
  packageBytes: Buffer;
  parameterId: number;
  password: string;
  agent: ReturnType<typeof simulatedAgent>;
  runs: number[];
}

/**
 * A little of everything a restore must give back: a robot with a version (package bytes on
 * the blob store), a secret parameter, a task, a user, a run in progress on an agent and one
 * queued.
 */
export async function seedWorkload(t: TestApp, token: string): Promise<Workload> {
  const as = client(t.app, { token, lang: 'en' });
  const robotId = await createRobot(as, 'Backup robot');
  const packageBytes = robotPackage();
  const versionId = await uploadVersion(t.app, token, robotId, packageBytes);
  const password = 'backup-S3cret!';
  const parameter = await as.post('/api/rota/parameter/api/v1/create', {
    name: 'BACKUP_PASS',
    password,
  });
  expect(parameter.status).toBe(201);
  const task = await as.post('/api/rota/task/api/v1/create', {
    rota_robots_id: robotId,
    label: 'invoice 1',
    expiration_date: '2099-12-31',
  });
  expect(task.status).toBe(201);
  await createUser(t.db, {
    access: 'backup.operator',
    password: 'operator-password',
    memberships: [],
  });
  const vm = await createVm(as, 'Backup VM');
  const { token: agentToken } = await createAgent(as, 'backup-agent', vm);
  const agent = simulatedAgent(t.app, agentToken);
  expect((await agent.hello()).status).toBe(200);
  const running = await runNow(as, { id: robotId });
  const claimed = await agent.claim();
  expect(claimed?.execution_id).toBe(running);
  const queued = await runNow(as, { id: robotId });
  return {
    robotId,
    versionId,
    packageBytes,
    parameterId: parameter.body.data.rota_parameters_id as number,
    password,
    agent,
    runs: [running, queued],
  };
}

export async function uploadVersion(app: App, token: string, robotId: number, data: Buffer) {
  const { payload, contentType } = multipart(
    { rota_robots_id: robotId, version: '1.0.0' },
    { name: 'robot.tar.gz', data },
  );
  const response = await app.inject({
    method: 'POST',
    url: '/api/rota/robot/version/api/v1/create',
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
  });
  expect(response.statusCode).toBe(201);
  return response.json().data.rota_robot_versions_id as number;
}
