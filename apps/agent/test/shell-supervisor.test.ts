import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { AgentLogBatch } from '@rota/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogShipper } from '../src/log-shipper.js';
import { silentLogger } from '../src/logger.js';
import { startRobot, type SupervisedRobot } from '../src/supervisor.js';
import { tempDir } from './helpers/archives.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (check()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

let dir: string;
const leftovers: number[] = [];
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  await rm(dir, { recursive: true, force: true });
});

const MARKER = 'ROTA_AGENT_RUN=/test|1-1';

function start(executor: string, onStarted: (pid: number) => void = () => {}): SupervisedRobot {
  return startRobot({
    executor,
    cwd: dir,
    env: { ...process.env, ROTA_AGENT_RUN: '/test|1-1' },
    marker: MARKER,
    onStarted,
  });
}

/** Every line the robot wrote, once its output closed. */
async function output(robot: SupervisedRobot): Promise<string[]> {
  let text = '';
  robot.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  robot.stderr.resume();
  await robot.closed;
  return text.split('\n').filter(Boolean);
}

describe.skipIf(process.platform !== 'linux')('the shell supervisor', () => {
  it("reports the robot's exit code, and a robot killed by a signal as that signal", async () => {
    const code = start('echo hello; exit 3');
    expect(await output(code)).toEqual(['hello']);
    expect(await code.outcome).toEqual({ kind: 'exit', code: 3, signal: null });
    await code.release(true);

    const killed = start('kill -TERM $$');
    expect(await killed.outcome).toEqual({ kind: 'exit', code: null, signal: 'SIGTERM' });
    await killed.release(true);
  });

  it('runs the robot in a group of its own that is not the agent’s, with the run’s marker', async () => {
    let group = 0;
    const robot = start(
      'ps -o pgid= -p $$; tr "\\0" "\\n" < /proc/$$/environ | grep ROTA_AGENT_RUN',
      (pid) => (group = pid),
    );
    const [pgid, marker] = await output(robot);
    expect(Number(pgid)).toBe(group);
    expect(group).not.toBe(process.pid);
    expect(marker).toBe(MARKER);
    await robot.outcome;
    await robot.release(true);
  });

  it('a release after an unclean end kills what the robot left, setsid helpers included', async () => {
    const robot = start('sleep 300 & echo $!; setsid sleep 301 & echo $!');
    let text = '';
    robot.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    await robot.outcome;
    await until(() => text.split('\n').filter(Boolean).length === 2, 'the helpers’ pids');
    const pids = text.split('\n').filter(Boolean).map(Number);
    leftovers.push(...pids);
    expect(pids.every(alive)).toBe(true);

    await robot.release(false);
    await until(() => pids.every((pid) => !alive(pid)), 'the helpers to die');
  });
});

describe('LogShipper.flush', () => {
  it('sends what is pending at once, without waiting for the next tick', async () => {
    let sent!: (batch: AgentLogBatch) => void;
    const first = new Promise<AgentLogBatch>((resolve) => (sent = resolve));
    const shipper = new LogShipper({
      ref: { execution_id: 1, attempt: 1 },
      send: async (batch) => {
        sent(batch);
        return { cancel: false };
      },
      onCancel: () => {},
      signal: new AbortController().signal,
      logger: silentLogger,
      // An hour: only the flush can send this line in the test's time.
      flushMs: 3_600_000,
      idleFlushMs: 3_600_000,
    });
    shipper.start();
    shipper.push('stdout', 'last line');
    shipper.flush();
    expect((await first).lines.map((l) => l.line)).toEqual(['last line']);
    await shipper.drain();
  });
});
