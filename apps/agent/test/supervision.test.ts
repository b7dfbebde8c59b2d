import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClaimedRun } from '@rota/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, type AgentConfig } from '../src/agent.js';
import { FakeClock } from '../src/clock.js';
import { silentLogger } from '../src/logger.js';
import { LEASE_LOST_MESSAGE } from '../src/run-execution.js';
import { tempDir } from './helpers/archives.js';
import { FakeRotaServer } from './helpers/fake-server.js';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A robot with a tree: two background sleeps, one of them escaped from the process group with
 * setsid, each pid written to `pids` before it waits.
 */
const TREE_ROBOT =
  'sleep 300 & echo $! >> pids; setsid sleep 301 & echo $! >> pids; echo $$ >> pids; echo started; wait';

function treeRun(id: number, dir: string): ClaimedRun {
  return {
    execution_id: id,
    attempt: 1,
    timeout_minutes: 60,
    timeout_seconds: 3600,
    robot: { rota_robots_id: 7, name: 'Tree', executor: TREE_ROBOT, remote_root: dir },
    package: null,
    environment: { ROTA_EXECUTION_ID: String(id), ROTA_EXECUTION_TOKEN: 't' },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie is dead, it only waits to be reaped by whoever adopted it.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function pidsIn(dir: string, count: number): Promise<number[]> {
  for (let i = 0; i < 200; i += 1) {
    const text = await readFile(path.join(dir, 'pids'), 'utf8').catch(() => '');
    const pids = text.split('\n').filter(Boolean).map(Number);
    if (pids.length >= count) return pids;
    await sleep(50);
  }
  throw new Error('the robot never wrote its pids');
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (check()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Children of `pid`, from /proc (ppid is the 4th field of stat). */
async function childrenOf(pid: number): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) === pid) out.push(Number(name));
  }
  return out;
}

let server: FakeRotaServer;
let workDir: string;
let robotDir: string;
const started: ChildProcess[] = [];
const leftovers: number[] = [];

beforeEach(async () => {
  server = await new FakeRotaServer().start();
  workDir = await tempDir();
  robotDir = await tempDir();
});
afterEach(async () => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  await server.close();
  await rm(workDir, { recursive: true, force: true });
  await rm(robotDir, { recursive: true, force: true });
});

function startAgent(): ChildProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', MAIN, '--server', server.url, '--token', 't', '--work-dir', workDir],
    { stdio: 'ignore' },
  );
  started.push(child);
  return child;
}

describe.skipIf(process.platform !== 'linux')('a robot lives only as long as its agent', () => {
  it('dies with its agent killed by SIGKILL, setsid helpers included', async () => {
    server.claimQueue.push(treeRun(1, robotDir));
    const agent = startAgent();
    const pids = await pidsIn(robotDir, 3);
    leftovers.push(...pids);
    expect(pids.every(alive)).toBe(true);

    agent.kill('SIGKILL');
    await until(() => pids.every((pid) => !alive(pid)), 'the robot tree to die');
  });

  it('at start, kills what an earlier instance left running in its work dir', async () => {
    server.claimQueue.push(treeRun(2, robotDir));
    const first = startAgent();
    const pids = await pidsIn(robotDir, 3);
    leftovers.push(...pids);
    // The agent and its supervisor die together, as in a power cut of the agent's cgroup:
    // nothing is left to kill the robot.
    const supervisors = await childrenOf(first.pid!);
    expect(supervisors.length).toBeGreaterThan(0);
    first.kill('SIGKILL');
    for (const pid of supervisors) process.kill(pid, 'SIGKILL');
    await sleep(300);
    expect(pids.every(alive)).toBe(true);

    startAgent();
    await until(() => pids.every((pid) => !alive(pid)), 'the leftovers to be killed');
  });

  it('ends what the robot left behind when the run ends', async () => {
    const run = treeRun(3, robotDir);
    // The shell exits at once, leaving its two sleeps behind.
    run.robot.executor = TREE_ROBOT.replace('; wait', '');
    server.claimQueue.push(run);
    startAgent();
    const pids = await pidsIn(robotDir, 3);
    leftovers.push(...pids);
    await server.until(() => server.calls('finish').length > 0, 'the result');
    expect(server.calls('finish')[0]!.body.status).toBe('success');
    await until(() => pids.every((pid) => !alive(pid)), 'the leftovers of the run to end');
  });
});

/** An agent in this process, quick to retry, quiet. */
function inProcessAgent(
  servers: string[],
  timings: AgentConfig['timings'],
  clock?: AgentConfig['clock'],
): Agent {
  return new Agent({
    servers,
    token: 't',
    workDir,
    concurrency: 1,
    graceSeconds: 1,
    logger: silentLogger,
    timings,
    ...(clock ? { clock } : {}),
  });
}

describe.skipIf(process.platform !== 'linux')('fencing and failover', () => {
  it('kills a robot whose lease it cannot renew, before the server may hand it on', async () => {
    server.handlers.hello = () => ({
      status: 200,
      body: {
        data: {
          rota_nodes_id: 1,
          name: 'fenced',
          rota_vms_id: 1,
          heartbeat_seconds: 1,
          lease_seconds: 2,
          claim_wait_seconds: 1,
        },
      },
    });
    // The robot starts; from then on no heartbeat gets through (a network cut one way).
    server.handlers.heartbeat = () => 'destroy';
    server.claimQueue.push(treeRun(4, robotDir));
    const clock = new FakeClock();
    const agent = inProcessAgent(
      [server.url],
      {
        backoff: { initialMs: 20, maxMs: 100 },
        fenceCheckMs: 50,
        fenceMarginMs: 500,
        outputCloseMs: 200,
        logFlushMs: 50,
      },
      clock,
    );
    const running = agent.run();
    try {
      const pids = await pidsIn(robotDir, 3);
      leftovers.push(...pids);
      // On the agent's clock the lease (2 s from the claim) is now its margin (0.5 s) from its
      // end: a robot still running then is killed.
      clock.advance(1_500);
      await server.until(() => server.calls('finish').length > 0, 'the fenced result');
      const finish = server.calls('finish')[0]!.body;
      expect(finish).toMatchObject({
        execution_id: 4,
        status: 'application_error',
        message: LEASE_LOST_MESSAGE,
      });
      await until(() => pids.every((pid) => !alive(pid)), 'the fenced robot to die');
    } finally {
      agent.stop();
      await running;
    }
  });

  it('fails over to the next server when one does not answer', async () => {
    const down = await new FakeRotaServer().start();
    for (const call of ['hello', 'heartbeat', 'claim', 'logs', 'finish']) {
      down.handlers[call] = () => 'destroy';
    }
    server.claimQueue.push({
      ...treeRun(5, robotDir),
      robot: { ...treeRun(5, robotDir).robot, executor: 'echo ok' },
    });
    const agent = inProcessAgent([down.url, server.url], {
      backoff: { initialMs: 20, maxMs: 100 },
      outputCloseMs: 200,
      logFlushMs: 50,
    });
    const running = agent.run();
    try {
      await server.until(() => server.calls('finish').length > 0, 'the result');
      expect(server.calls('finish')[0]!.body).toMatchObject({ execution_id: 5, status: 'success' });
      expect(down.calls('hello').length).toBeGreaterThan(0);
    } finally {
      agent.stop();
      await running;
      await down.close();
    }
  });

  it('says goodbye when it stops cleanly', async () => {
    server.handlers.goodbye = () => ({ status: 200, body: { data: { released: 0 } } });
    const agent = inProcessAgent([server.url], { backoff: { initialMs: 20, maxMs: 100 } });
    const running = agent.run();
    await server.until(() => server.calls('claim').length > 0, 'a claim');
    agent.stop();
    await running;
    expect(server.calls('goodbye')).toHaveLength(1);
    expect(existsSync(workDir)).toBe(true);
  });
});
