import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import {
  ADMIN,
  client,
  createTestApp,
  signIn,
  type TestApp,
} from '../../../server/test/helpers/test-app.js';

const CLI_DIR = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export interface Served {
  t: TestApp;
  url: string;
  /** The seeded admin of "Default", through app.inject, to set the scene. */
  admin: ReturnType<typeof client>;
  /** A personal API key of the admin holding all of their permissions. */
  key: string;
  close(): Promise<void>;
}

/** The real app listening on a free loopback port, and an API key to call it with. */
export async function serve(): Promise<Served> {
  const t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  const admin = client(t.app, { token: await signIn(t.app, ADMIN.access, ADMIN.password) });
  const key = await createKey(admin, { name: 'cli' });
  return { t, url: `http://127.0.0.1:${port}`, admin, key, close: () => t.close() };
}

export async function createKey(as: ReturnType<typeof client>, body: object): Promise<string> {
  const res = await as.post('/api/user/apikey/api/v1/create', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.key as string;
}

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `rota ARGS` as a script runs it: a child process over real HTTP. Async, so the server in
 * this process keeps answering while the child waits on it.
 */
export function rota(
  args: string[],
  env: Record<string, string | undefined> = {},
  /** The built bin instead of the sources. */
  bin?: string,
): Promise<Outcome> {
  const command = bin ? [bin, ...args] : ['--import', 'tsx', MAIN, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, command, {
      cwd: CLI_DIR,
      // Nothing from the developer's own shell (a real profile, a real key) leaks in.
      env: { PATH: process.env.PATH, HOME: '/nonexistent', LANG: 'en_US.UTF-8', ...env },
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

/** `rota` against `served` with its key in the environment. */
export const rotaOn = (served: Served, args: string[], env: Record<string, string> = {}) =>
  rota(args, { ROTA_URL: served.url, ROTA_API_KEY: served.key, ...env });
