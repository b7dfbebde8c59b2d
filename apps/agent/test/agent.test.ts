import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentLogLine, ClaimedRun } from '@rota/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, type AgentConfig } from '../src/agent.js';
import { FakeClock } from '../src/clock.js';
import { createStderrLogger, silentLogger } from '../src/logger.js';
import { UnauthorizedError } from '../src/protocol-client.js';
import { tempDir } from './helpers/archives.js';
import { FakeRotaServer } from './helpers/fake-server.js';
import { claimedRun, robotPackage } from './helpers/robot-run.js';

/** The robot: prints what it got, then exits with the code it is given, or loops/sleeps. */
const ROBOT = `
const mode = process.argv[2];
console.log('hello from ' + process.env.ROTA_EXECUTION_ID);
console.log('api ' + process.env.ROTA_API_URL);
console.log('param ' + process.env.ROTA_PARAM_GREETING);
console.log('agent token visible: ' + ['ROTA_AGENT_TOKEN', 'ROTA_AGENT_TOKEN_FILE', 'CREDENTIALS_DIRECTORY'].some((name) => process.env[name] !== undefined));
if (mode === 'loop') {
  let i = 0;
  setInterval(() => console.log('tick ' + i++), 50);
} else if (mode === 'slow') {
  setTimeout(() => process.exit(0), 600);
} else {
  process.stderr.write('first problem\\r\\nbad thing happened\\n\\n');
  process.exit(Number(mode));
}
`;
const ROBOT_PACKAGE = robotPackage(ROBOT, '1.2.0');
const PACKAGE = ROBOT_PACKAGE.data;
const PACKAGE_SHA = ROBOT_PACKAGE.sha256;
const DOWNLOAD_PATH = ROBOT_PACKAGE.downloadPath;

function claimed(id: number, mode: string, overrides: Partial<ClaimedRun> = {}): ClaimedRun {
  const run = claimedRun(id, ROBOT_PACKAGE, mode);
  return {
    ...run,
    environment: { ...run.environment, ROTA_PARAM_GREETING: 'hi' },
    ...overrides,
  };
}

let server: FakeRotaServer;
let workDir: string;

beforeEach(async () => {
  server = await new FakeRotaServer().start();
  server.packages.set(DOWNLOAD_PATH, PACKAGE);
  workDir = await tempDir();
});
afterEach(async () => {
  await server.close();
  await rm(workDir, { recursive: true, force: true });
});

function makeAgent(overrides: Partial<AgentConfig> = {}): Agent {
  return new Agent({
    servers: [server.url],
    token: 'agent-secret',
    workDir,
    concurrency: 1,
    graceSeconds: 5,
    logger: process.env.ROTA_AGENT_TEST_LOG ? createStderrLogger() : silentLogger,
    timings: {
      backoff: { initialMs: 20, maxMs: 100 },
      logFlushMs: 50,
      logIdleFlushMs: 300,
      killGraceMs: 1_000,
      deliveryGraceMs: 1_000,
      outputCloseMs: 500,
    },
    ...overrides,
  });
}

/** Every line the server got for one execution, once each, by seq. */
function linesOf(id: number): AgentLogLine[] {
  const bySeq = new Map<number, AgentLogLine>();
  for (const r of server.calls('logs')) {
    if (r.body.execution_id !== id) continue;
    for (const line of r.body.lines as AgentLogLine[]) bySeq.set(line.seq, line);
  }
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

const finishOf = (id: number) => server.calls('finish').filter((r) => r.body.execution_id === id);
const finished = (ids: number[]) => () => ids.every((id) => finishOf(id).length > 0);

describe('Agent', () => {
  it('asks for the next run with each result and runs what the answer brings, without a claim', async () => {
    server.claimQueue.push(claimed(1, '0'));
    let sent = false;
    server.handlers.finish = (body) => {
      // The first result brings run 2 back; the server answers later ones with none.
      const runs = !sent && body.claim ? [claimed(2, '0')] : [];
      sent = true;
      return { status: 200, body: { data: { accepted: true, runs } } };
    };
    const agent = makeAgent();
    const running = agent.run();
    try {
      await server.until(finished([1, 2]), 'both finishes');
    } finally {
      agent.stop();
    }
    await running;
    // Each result asked for one more run, answered at once (a slot is free, nothing waits).
    expect(finishOf(1)[0]?.body.claim).toEqual({ wait_seconds: 0, max: 1 });
    expect(finishOf(2)[0]?.body).toMatchObject({ status: 'success', attempt: 1 });
    // Run 2 came with run 1's result: no claim between the two.
    const claimsBetween = server.requests
      .slice(server.requests.indexOf(finishOf(1)[0]!), server.requests.indexOf(finishOf(2)[0]!))
      .filter((r) => r.call === 'claim');
    expect(claimsBetween).toEqual([]);
  });

  it('delivers an old result first, then runs claimed executions and reports each', async () => {
    // Left by an earlier process that could not reach the server.
    await mkdir(path.join(workDir, 'outbox'));
    await writeFile(
      path.join(workDir, 'outbox', '99-1.json'),
      JSON.stringify({
        execution_id: 99,
        attempt: 1,
        status: 'success',
        exit_code: 0,
        message: null,
      }),
    );
    let refusals = 2;
    server.handlers.finish = (body) =>
      body.execution_id === 99 && refusals-- > 0
        ? { status: 503 }
        : { status: 200, body: { data: { accepted: true } } };
    server.handlers.logs = (body) => ({
      status: 200,
      body: {
        data: {
          cancel:
            body.execution_id === 4 && linesOf(4).some((l: AgentLogLine) => l.line === 'tick 2'),
        },
      },
    });
    server.claimQueue.push(
      claimed(1, '0'),
      claimed(2, '3'),
      claimed(3, '1'),
      claimed(4, 'loop'),
      claimed(5, '0', {
        package: { ...claimed(5, '0').package!, sha256: 'e'.repeat(64), download_path: '/other' },
      }),
    );
    server.packages.set('/other', PACKAGE);
    process.env.ROTA_AGENT_TOKEN = 'must-not-leak';
    // Where a token file or systemd's credential is, too (a service's environment).
    process.env.ROTA_AGENT_TOKEN_FILE = '/etc/rota-agent/token';
    process.env.CREDENTIALS_DIRECTORY = '/run/credentials/rota-agent.service';

    const agent = makeAgent();
    const running = agent.run();
    try {
      await server.until(finished([1, 2, 3, 4, 5]), 'all finishes');
    } finally {
      delete process.env.ROTA_AGENT_TOKEN;
      delete process.env.ROTA_AGENT_TOKEN_FILE;
      delete process.env.CREDENTIALS_DIRECTORY;
      agent.stop();
    }
    await running;

    // hello first, with the agent's identity and its token.
    const [hello] = server.requests;
    expect(hello).toMatchObject({
      call: 'hello',
      authorization: 'Bearer agent-secret',
      body: { version: '3.0.1', hostname: expect.any(String), os: expect.any(String) },
    });
    expect(server.requests.every((r) => r.authorization === 'Bearer agent-secret')).toBe(true);

    // The old result: listed in heartbeats, retried, delivered before the first claim.
    expect(server.calls('heartbeat')[0]?.body.running).toEqual([{ execution_id: 99, attempt: 1 }]);
    const old = finishOf(99);
    expect(old).toHaveLength(3);
    expect(old[2]?.body).toMatchObject({ status: 'success', exit_code: 0 });
    const firstClaim = server.requests.findIndex((r) => r.call === 'claim');
    expect(server.requests.indexOf(old[2]!)).toBeLessThan(firstClaim);

    // One download for the four runs that share the package.
    expect(server.calls('download').map((r) => r.body)).toEqual([DOWNLOAD_PATH, '/other']);

    const result = (id: number) => finishOf(id)[0]?.body;
    expect(result(1)).toMatchObject({ status: 'success', exit_code: 0, message: null });
    expect(result(2)).toMatchObject({
      status: 'business_error',
      exit_code: 3,
      message: 'bad thing happened',
    });
    expect(result(3)).toMatchObject({
      status: 'application_error',
      exit_code: 1,
      message: 'bad thing happened',
    });
    expect(result(4)).toMatchObject({ status: 'cancelled' });
    expect(result(5)).toMatchObject({ status: 'application_error' });
    expect(result(5).message).toMatch(/sha256 mismatch/);
    for (const id of [1, 2, 3, 4, 5]) {
      expect(finishOf(id)).toHaveLength(1);
      expect(Date.parse(result(id).ended_at)).not.toBeNaN();
    }

    // Output: numbered from 1 without gaps, streams kept apart, the robot's environment right.
    const lines = linesOf(1);
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_l, i) => i + 1));
    const text = (stream: string) => lines.filter((l) => l.stream === stream).map((l) => l.line);
    expect(text('stdout')).toEqual([
      'hello from 1',
      `api ${server.url}/api`,
      'param hi',
      'agent token visible: false',
    ]);
    expect(text('stderr')).toEqual(['first problem', 'bad thing happened', '']);
    expect(text('system').join('\n')).toMatch(
      /downloading package 1\.2\.0[\s\S]*unpacked[\s\S]*starting/,
    );
    expect(
      linesOf(2).find((l) => l.stream === 'system' && l.line.includes('already unpacked')),
    ).toBeTruthy();
    expect(linesOf(4).some((l) => l.line.startsWith('cancel requested'))).toBe(true);

    // Logs of a run all arrive before its result.
    const lastLogs = server.requests.findLastIndex(
      (r) => r.call === 'logs' && r.body.execution_id === 3,
    );
    expect(lastLogs).toBeLessThan(server.requests.indexOf(finishOf(3)[0]!));

    expect(await readdir(path.join(workDir, 'outbox'))).toEqual([]);
    expect(
      (await readFile(path.join(workDir, 'robots', '10', '.rota-version'), 'utf8')).trim(),
    ).toBe(PACKAGE_SHA);
  });

  it('keeps a result while the server is unreachable and delivers it once back', async () => {
    let down = true;
    server.handlers.finish = () =>
      down ? 'destroy' : { status: 200, body: { data: { accepted: false } } };
    server.claimQueue.push(claimed(7, '0'));
    const clock = new FakeClock();
    const agent = makeAgent({ clock, timings: { backoff: { initialMs: 20, maxMs: 50 } } });
    const running = agent.run();
    try {
      await server.until(() => finishOf(7).length >= 3, 'finish attempts');
      // The result waits on disk and its lease is kept.
      expect(existsSync(path.join(workDir, 'outbox', '7-1.json'))).toBe(true);
      const heartbeats = server.calls('heartbeat').length;
      await clock.untilSleeping();
      clock.advance(1_000);
      await server.until(() => server.calls('heartbeat').length > heartbeats, 'a heartbeat');
      expect(server.calls('heartbeat').at(-1)?.body.running).toEqual([
        { execution_id: 7, attempt: 1 },
      ]);
      // The only slot is busy delivering: no new claim meanwhile.
      expect(server.calls('claim')).toHaveLength(1);
      down = false;
      await server.until(() => !existsSync(path.join(workDir, 'outbox', '7-1.json')), 'outbox');
    } finally {
      agent.stop();
    }
    await running;
    expect(finishOf(7).at(-1)?.body).toMatchObject({ status: 'success', exit_code: 0 });
  });

  it('on stop, lets a robot finish within the grace period and stops the one that does not', async () => {
    server.claimQueue.push(claimed(21, 'slow'), claimed(22, 'loop'));
    const agent = makeAgent({ concurrency: 2, graceSeconds: 1 });
    const running = agent.run();
    await server.until(
      () => linesOf(21).length > 0 && linesOf(22).some((l) => l.line.startsWith('tick')),
      'both robots running',
    );
    const seenBeforeStop = server.requests.length;
    agent.stop();
    // Ends only if the looping robot is stopped when the grace period is over.
    await running;

    expect(finishOf(21)[0]?.body).toMatchObject({ status: 'success' });
    expect(finishOf(22)[0]?.body).toMatchObject({
      status: 'application_error',
      message: 'agent stopped',
      code: 'agent_stopped',
    });
    // No claim after the stop (a claim pending then was aborted, not answered).
    expect(server.requests.slice(seenBeforeStop).filter((r) => r.call === 'claim')).toEqual([]);
  });

  it('kills a robot that runs past its timeout', async () => {
    server.claimQueue.push(claimed(31, 'loop', { timeout_minutes: 1, timeout_seconds: 60 }));
    const agent = makeAgent({ timings: { minuteMs: 400 } });
    const running = agent.run();
    try {
      await server.until(finished([31]), 'finish');
    } finally {
      agent.stop();
    }
    await running;
    expect(finishOf(31)[0]?.body).toMatchObject({
      status: 'timeout',
      message: 'timed out after 1 minute',
      code: 'timed_out',
      params: { minutes: 1 },
    });
    // The kill's system line carries its code, so the console says it in the user's language.
    expect(
      linesOf(31).some(
        (l) =>
          l.stream === 'system' &&
          l.line.startsWith('timed out after 1 minute:') &&
          l.code === 'killing_tree' &&
          l.params?.reason === 'timeout',
      ),
    ).toBe(true);
    expect(linesOf(31).find((l) => l.code === 'starting')?.params).toMatchObject({
      executor: expect.any(String),
    });
  });

  it('cancels a run the heartbeat names', async () => {
    server.handlers.heartbeat = (body) => ({
      status: 200,
      body: {
        data: {
          cancel: body.running.some((r: { execution_id: number }) => r.execution_id === 41)
            ? [41]
            : [],
        },
      },
    });
    server.claimQueue.push(claimed(41, 'loop'));
    const clock = new FakeClock();
    const agent = makeAgent({ clock });
    const running = agent.run();
    try {
      // The run is the agent's once it fetches its package; the next heartbeat lists it.
      await server.until(() => server.calls('download').length > 0, 'the run to start');
      await clock.untilSleeping();
      clock.advance(1_000);
      await server.until(finished([41]), 'finish');
    } finally {
      agent.stop();
    }
    await running;
    expect(finishOf(41)[0]?.body).toMatchObject({ status: 'cancelled' });
  });

  it('stops at once on a refused token', async () => {
    server.handlers.hello = () => ({ status: 401, body: { code: 'unauthorized', message: 'no' } });
    const agent = makeAgent();
    await expect(agent.run()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(server.requests.map((r) => r.call)).toEqual(['hello']);
  });
});
