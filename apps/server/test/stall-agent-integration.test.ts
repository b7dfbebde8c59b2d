import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../src/lib/clock.js';
import { ACTIVITY, ROBOT, runNow } from './helpers/engine.js';
import { startServerWithRealAgent, until, type RealAgentServer } from './helpers/real-agent.js';

/**
 * Stalls with a real agent (apps/agent, through tsx) and real robot processes that
 * go quiet: flagged, or killed and ended "stalled". The engine's clock is a FakeClock moved
 * past `stall_minutes`, so nothing waits a minute.
 */
const MINUTE = 60_000;

const clock = new FakeClock(new Date());
let server: RealAgentServer;
let admin: RealAgentServer['admin'];
let workDir: string;

beforeAll(async () => {
  server = await startServerWithRealAgent({
    clock,
    name: 'Stall',
    agentArgs: ['--grace-seconds', '2'],
  });
  ({ admin, workDir } = server);
});

afterAll(async () => {
  await server?.close();
});

async function show(id: number) {
  const res = await admin.post(`${ACTIVITY}/show`, { id });
  expect(res.status).toBe(200);
  return res.body.data as {
    status: string;
    stalled: boolean;
    message: string | null;
    attempts: number;
    attempt_list: { status: string; message: string | null }[];
  };
}

/** A robot that says one line, writes its shell's pid to `pidFile`, then sleeps in silence. */
async function quietRobot(name: string, pidFile: string, settings: object) {
  const res = await admin.post(`${ROBOT}/create`, {
    name,
    executor: `echo $$ > ${pidFile}; echo gone quiet; sleep 600`,
    ...settings,
  });
  expect(res.status).toBe(201);
  return res.body.data.rota_robots_id as number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('a real robot that goes quiet', () => {
  it('is flagged stalled, still processing, its process left running', async () => {
    const pidFile = path.join(workDir, 'flag.pid');
    const robot = await quietRobot('Quiet flag', pidFile, { stall_minutes: 1 });
    const id = await runNow(admin, { id: robot });
    await until('the robot to start', async () => existsSync(pidFile));
    expect((await show(id)).stalled).toBe(false);
    clock.advance(2 * MINUTE);
    await until('the run to be flagged', async () => (await show(id)).stalled);
    expect((await show(id)).status).toBe('processing');
    // The robot is left running; the console's cancel ends it.
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(isAlive(pid)).toBe(true);
    expect((await admin.post(`${ACTIVITY}/cancel`, { id })).status).toBeLessThan(300);
    await until('the run to end', async () => (await show(id)).status === 'cancelled');
  });

  it('with kill: the robot process dies and the run ends application_error "stalled"', async () => {
    const pidFile = path.join(workDir, 'kill.pid');
    // Longer than the clock has moved so far: only the advance below stalls it.
    const robot = await quietRobot('Quiet kill', pidFile, {
      stall_minutes: 10,
      stall_action: 'kill',
    });
    const id = await runNow(admin, { id: robot, retries: 0 });
    await until('the robot to start', async () => existsSync(pidFile));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    clock.advance(20 * MINUTE);
    const done = await until('the run to end', async () => {
      const e = await show(id);
      return e.status === 'processing' ? undefined : e;
    });
    expect(done).toMatchObject({ status: 'application_error', message: 'stalled', attempts: 1 });
    expect(done.attempt_list[0]).toMatchObject({ status: 'application_error', message: 'stalled' });
    await until('the robot process to die', async () => !isAlive(pid), 15_000);
  });
});
