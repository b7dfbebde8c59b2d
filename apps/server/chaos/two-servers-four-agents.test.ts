import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The failure the engine must survive, as it happens on real machines: two server instances on one
 * PostgreSQL, four real agents (the built `apps/agent`), 500 runs of a robot that keeps a ledger;
 * midway one server and one agent are killed with SIGKILL. Afterwards no execution may have had
 * two attempts alive at once (the robot holds an flock per execution for its whole tree, and
 * writes "overlap" when it finds it taken), every run must be final, and none lost.
 *
 * Out of `npm test` (it takes more than a minute); `.ci/run` runs it on PostgreSQL.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
const AGENT_MAIN = path.join(ROOT, 'apps/agent/dist/main.js');
const DATABASE_URL = process.env.DATABASE_URL;
const TOTAL = Number(process.env.CHAOS_RUNS ?? 500);
const LEASE_SECONDS = 6;
const PASSWORD = 'chaos-admin-password';

const LEDGER_ROBOT = `#!/bin/sh
# One attempt of one execution: the lock is held by every process of the tree (sleep inherits
# fd 9), so a second copy alive at the same time cannot miss it.
exec 9>>"locks/$ROTA_EXECUTION_ID"
if ! flock -n 9; then echo "overlap $ROTA_EXECUTION_ID $ROTA_ATTEMPT" >> ledger; exit 1; fi
echo "start $ROTA_EXECUTION_ID $ROTA_ATTEMPT" >> ledger
sleep 0.3
echo "end $ROTA_EXECUTION_ID $ROTA_ATTEMPT" >> ledger
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface Proc {
  child: ChildProcess;
  output: string[];
}

const procs: Proc[] = [];

function start(args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = { child, output: [] as string[] };
  const keep = (chunk: Buffer) => {
    proc.output.push(chunk.toString());
    if (proc.output.length > 400) proc.output.splice(0, 200);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  procs.push(proc);
  return proc;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

async function api(base: string, route: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${route}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of many shapes
  const json = (await res.json().catch(() => null)) as any;
  if (!res.ok) throw new Error(`${route}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

describe.skipIf(!DATABASE_URL)('two servers, four agents, one of each killed (SIGKILL)', () => {
  let database = '';
  let admin: pg.Client;
  let dir = '';
  let url = '';

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    database = `rota_chaos_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${database}`);
    const u = new URL(DATABASE_URL!);
    u.pathname = `/${database}`;
    url = u.toString();
    dir = await mkdtemp(path.join(os.tmpdir(), 'rota-chaos-'));
  });

  afterAll(async () => {
    for (const { child } of procs) child.kill('SIGKILL');
    await sleep(500);
    await admin.query(`drop database if exists ${database} with (force)`).catch(() => undefined);
    await admin.end();
    await rm(dir, { recursive: true, force: true });
  });

  it(`runs ${TOTAL} executions: none twice at once, none lost, every one final`, async () => {
    const robotDir = path.join(dir, 'robot');
    await mkdir(path.join(robotDir, 'locks'), { recursive: true });
    await writeFile(path.join(robotDir, 'ledger.sh'), LEDGER_ROBOT, { mode: 0o755 });
    await writeFile(path.join(robotDir, 'ledger'), '');

    const secret = randomBytes(32).toString('hex');
    const ports = [await freePort(), await freePort()];
    const servers = ports.map((port) => `http://127.0.0.1:${port}`);
    const startServer = (i: number) =>
      start([SERVER_MAIN], {
        NODE_ENV: 'production',
        PORT: String(ports[i]),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dir, `server-${i}`),
        DATABASE_URL: url,
        ROTA_SECRET_KEY: secret,
        ROTA_ADMIN_PASSWORD: PASSWORD,
        ROTA_LEASE_SECONDS: String(LEASE_SECONDS),
        LOG_LEVEL: 'warn',
      });
    // One after the other: the first migrates and seeds.
    const serverProcs = [startServer(0)];
    const healthy = (base: string) => async () =>
      (await fetch(`${base}/api/health`)).ok ? true : undefined;
    await until('the first server', healthy(servers[0]!), 60_000);
    serverProcs.push(startServer(1));
    await until('the second server', healthy(servers[1]!), 60_000);

    const session = await api(servers[0]!, '/api/user/api/auth/v1/session', {
      access: 'admin',
      password: PASSWORD,
    });
    const token = session.token as string;
    const robot = await api(
      servers[0]!,
      '/api/rota/robot/api/v1/create',
      { name: 'Ledger robot', executor: 'sh ledger.sh', remote_root: robotDir },
      token,
    );
    const robotId = robot.data.rota_robots_id as number;
    const vm = await api(
      servers[0]!,
      '/api/rota/vm/api/v1/create',
      { name: 'Chaos VM', hostname: 'chaos.lan' },
      token,
    );
    const vmId = vm.data.rota_vms_id as number;

    const agentTokens: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const agent = await api(
        servers[0]!,
        '/api/rota/node/api/v1/create',
        { name: `Chaos agent ${i}`, rota_vms_id: vmId },
        token,
      );
      agentTokens.push(agent.data.token as string);
    }
    const startAgent = (i: number) =>
      start(
        [
          AGENT_MAIN,
          // Half start on each server; all know both.
          '--server',
          (i % 2 === 0 ? servers : [...servers].reverse()).join(','),
          '--work-dir',
          path.join(dir, `agent-${i}`),
          '--concurrency',
          '2',
          '--grace-seconds',
          '2',
        ],
        { ROTA_AGENT_TOKEN: agentTokens[i] },
      );
    const agents = [0, 1, 2, 3].map(startAgent);

    for (let i = 0; i < TOTAL; i += 1) {
      await api(servers[i % 2]!, '/api/rota/robot/api/v1/run', { id: robotId, retries: 3 }, token);
    }

    const ledger = async () => (await readFile(path.join(robotDir, 'ledger'), 'utf8')).split('\n');
    // Midway: one server and one agent die without a word.
    await until(
      'a third of the runs to start',
      async () =>
        (await ledger()).filter((l) => l.startsWith('start')).length >= TOTAL / 3
          ? true
          : undefined,
      120_000,
    );
    serverProcs[0]!.child.kill('SIGKILL');
    agents[0]!.child.kill('SIGKILL');
    // The killed agent comes back a little later with its work dir (its outbox, its leftovers).
    await sleep(3000);
    startAgent(0);

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      await until(
        'every execution to be final',
        async () => {
          const { rows } = await db.query(
            `select count(*)::int as open from rota_executions where status in ('queued', 'processing')`,
          );
          return rows[0].open === 0 ? true : undefined;
        },
        240_000,
      );
      const { rows: executions } = await db.query(
        `select rota_executions_id as id, status, attempts from rota_executions order by 1`,
      );
      const { rows: attempts } = await db.query(
        `select rota_executions_id as id, attempt, status, message, late_status
           from rota_execution_attempts order by 1, 2`,
      );
      const lines = (await ledger()).filter(Boolean);

      // Never two attempts of one execution alive at once.
      expect(lines.filter((l) => l.startsWith('overlap'))).toEqual([]);
      // None lost: all of them ran, each ended in a final status — success, since retries
      // remained for every attempt a killed agent or server cost.
      expect(executions).toHaveLength(TOTAL);
      expect(executions.filter((e) => e.status !== 'success')).toEqual([]);
      // Each attempt started its robot once at most; an attempt whose robot ended is never
      // marked lost while its success is dropped: a finished attempt's result is either the
      // attempt's own status or kept on it as a late result.
      const starts = new Map<string, number>();
      for (const line of lines.filter((l) => l.startsWith('start '))) {
        const key = line.slice('start '.length);
        starts.set(key, (starts.get(key) ?? 0) + 1);
      }
      expect([...starts.entries()].filter(([, n]) => n > 1)).toEqual([]);
      const ended = new Set(lines.filter((l) => l.startsWith('end ')).map((l) => l.slice(4)));
      const dropped = attempts.filter(
        (a) =>
          ended.has(`${a.id} ${a.attempt}`) && a.status !== 'success' && a.late_status === null,
      );
      // An attempt whose robot ended but whose agent was killed before it could write its
      // outbox may be lost with it (that is the robot running again, allowed); anything else
      // must have been recorded.
      expect(dropped.length).toBeLessThanOrEqual(2);
      const retried = executions.filter((e) => e.attempts > 1).length;
      process.stdout.write(
        `chaos: ${TOTAL} executions, ${retried} needed more than one attempt, ${lines.length} ledger lines\n`,
      );
    } catch (error) {
      for (const proc of procs) process.stderr.write(proc.output.join('').slice(-3000));
      throw error;
    } finally {
      await db.end();
    }
  });
});
