import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { AUTH } from './helpers/test-app.js';

/**
 * A real server process killed with SIGKILL in the middle of a package upload leaves its temp
 * file behind; the next start on the same DATA_DIR removes it before it listens.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');
const PASSWORD = 'Sigkill-password-1';

const children: ChildProcess[] = [];
let dataDir: string | undefined;
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** The server as an operator starts it, on the embedded database in `dir`; resolves once it listens. */
async function startServer(dir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ROTA_ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Server listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${log.slice(-2000)}`)));
  });
  return child;
}

async function call(port: number, method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const parts = async (dir: string) =>
  (await readdir(path.join(dir, 'packages', 'tmp')).catch(() => [] as string[])).filter((n) =>
    n.endsWith('.part'),
  );

describe('an upload cut by SIGKILL', () => {
  it('leaves a temp file that the next start removes before it listens', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'rota-sigkill-'));
    const port = await freePort();
    const first = await startServer(dataDir, port);
    const signIn = await call(port, 'POST', `${AUTH}/session`, {
      access: 'admin',
      password: PASSWORD,
    });
    expect(signIn.status).toBe(200);
    const token = signIn.body.token as string;
    const robot = await call(
      port,
      'POST',
      '/api/rota/robot/api/v1/create',
      { name: 'Sigkill robot', executor: 'node main.js' },
      token,
    );
    expect(robot.status).toBe(201);
    const robotId = robot.body.data.rota_robots_id as number;

    // A package upload whose body has begun and never ends.
    const boundary = 'sigkill-boundary';
    const upload = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/rota/robot/version/api/v1/create',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'transfer-encoding': 'chunked',
      },
    });
    upload.on('error', () => {});
    upload.write(
      `--${boundary}\r\ncontent-disposition: form-data; name="rota_robots_id"\r\n\r\n${robotId}\r\n` +
        `--${boundary}\r\ncontent-disposition: form-data; name="version"\r\n\r\n1\r\n` +
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="p.zip"\r\n` +
        'content-type: application/zip\r\n\r\n',
    );
    upload.write(Buffer.alloc(256 * 1024, 1));
    while ((await parts(dataDir)).length === 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }

    first.kill('SIGKILL');
    await once(first, 'exit');
    upload.destroy();
    // Nobody cleaned up after the killed process.
    const left = await parts(dataDir);
    expect(left).toHaveLength(1);

    await startServer(dataDir, port);
    expect(await parts(dataDir)).toEqual([]);
    expect((await call(port, 'GET', '/api/health')).status).toBe(200);
  }, 120_000);
});
