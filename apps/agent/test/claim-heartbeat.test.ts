import { describe, expect, it } from 'vitest';
import { Agent } from '../src/agent.js';
import { FakeClock } from '../src/clock.js';
import { silentLogger, type Logger } from '../src/logger.js';
import { helloAnswer, type Handler } from './helpers/fake-server.js';
import { claimedRun, robotPackage, useFakeServer } from './helpers/robot-run.js';

/**
 * A server that counts a claim's arrival as a heartbeat (hello's `claim_is_heartbeat`)
 * lets an idle agent keep one connection: it claims every heartbeat interval and sends no
 * heartbeat while that claim is open. It heartbeats as before while it holds a run, when a
 * call fails, and with a server that does not say so.
 *
 * The heartbeat's interval passes on a fake clock, one interval at a time; the fake server holds
 * a claim that finds nothing open until the test ends, longer than any interval here.
 */
const PACKAGE = robotPackage(`setInterval(() => console.log('tick'), 50);`);
const fx = useFakeServer(PACKAGE);

/** What hello answers (`heartbeat_seconds`). */
const HEARTBEAT_MS = 1_000;

/** hello as a server of this version answers it: heartbeats every second, claims count. */
const helloCountingClaims: Handler = () => helloAnswer({ claim_is_heartbeat: true });

function makeAgent(
  clock: FakeClock,
  { logger = silentLogger, concurrency = 1 }: { logger?: Logger; concurrency?: number } = {},
): Agent {
  return new Agent({
    servers: [fx.server.url],
    token: 'agent-secret',
    workDir: fx.workDir,
    concurrency,
    graceSeconds: 1,
    logger,
    clock,
    timings: {
      backoff: { initialMs: 20, maxMs: 100 },
      logFlushMs: 50,
      killGraceMs: 500,
      deliveryGraceMs: 1_000,
      outputCloseMs: 500,
    },
  });
}

const beats = () => fx.server.calls('heartbeat').length;

/**
 * One heartbeat interval passes; resolves once the heartbeat loop waits for the next one, which
 * it does only after a heartbeat it sent meanwhile was answered: what the server has seen by
 * then is all the interval brought.
 */
async function oneInterval(clock: FakeClock): Promise<void> {
  // The heartbeat loop is the clock's only sleeper: nothing else moves with it.
  expect(clock.sleeping).toBe(1);
  clock.advance(HEARTBEAT_MS);
  await clock.untilSleeping();
}

/**
 * An agent whose first claim the server holds open: the heartbeats sent before that claim and
 * during three heartbeat intervals of it, and the claims.
 */
async function whileClaimIsHeld() {
  const clock = new FakeClock();
  const agent = makeAgent(clock);
  const running = agent.run();
  try {
    // The first heartbeat leaves before the first claim, but may arrive after it.
    await fx.server.until(
      () => fx.server.calls('claim').length === 1 && beats() > 0,
      'a claim and the first heartbeat',
    );
    await clock.untilSleeping();
    const before = beats();
    for (let i = 0; i < 3; i += 1) await oneInterval(clock);
    return { before, during: beats() - before, claims: fx.server.calls('claim') };
  } finally {
    agent.stop();
    await running;
  }
}

/**
 * A logger that keeps what it is told, and whether the agent's calls failed last: its client
 * warns "…; retrying in …" as a call fails and says "reachable again" as one then succeeds.
 */
function recordingLogger() {
  const messages: string[] = [];
  const logger: Logger = {
    info: (m) => messages.push(m),
    warn: (m) => messages.push(m),
    error: (m) => messages.push(m),
  };
  const failingNow = () =>
    /; retrying in /.test(messages.findLast((m) => /; retrying in |reachable again/.test(m)) ?? '');
  return { logger, failingNow };
}

describe('an open claim standing for the heartbeat', () => {
  it('sends no heartbeat while an idle agent’s claim is open, and claims with a wait of one heartbeat interval', async () => {
    fx.server.handlers.hello = helloCountingClaims;
    const { before, during, claims } = await whileClaimIsHeld();
    expect(claims).toHaveLength(1);
    expect(during).toBe(0);
    // Only the one sent as the agent started, before its first claim left.
    expect(before).toBe(1);
    expect(claims[0]?.body).toEqual({ wait_seconds: 1 });
  });

  it('heartbeats while it holds a run, listing it, and hears the cancel, though its other slot’s claim is open', async () => {
    fx.server.handlers.hello = helloCountingClaims;
    fx.server.claimQueue.push(claimedRun(51, PACKAGE));
    fx.server.handlers.heartbeat = (body) => ({
      status: 200,
      body: {
        data: {
          cancel: body.running.some((r: { execution_id: number }) => r.execution_id === 51)
            ? [51]
            : [],
        },
      },
    });
    const clock = new FakeClock();
    const agent = makeAgent(clock, { concurrency: 2 });
    const running = agent.run();
    try {
      // The agent fetches the package of a run it already holds; the other slot's claim is
      // held open.
      await fx.server.until(
        () => fx.server.calls('download').length > 0 && fx.server.calls('claim').length === 2,
        'the run to start and a second claim',
      );
      await clock.untilSleeping();
      await oneInterval(clock);
      await fx.server.until(() => fx.server.calls('finish').length > 0, 'the cancelled result');
    } finally {
      agent.stop();
    }
    await running;
    expect(
      fx.server
        .calls('heartbeat')
        .some((r) => r.body.running.some((x: any) => x.execution_id === 51)),
    ).toBe(true);
    expect(fx.server.calls('finish')[0]?.body).toMatchObject({
      execution_id: 51,
      status: 'cancelled',
    });
  });

  it('heartbeats while claims fail (the claim may be stuck retrying where a heartbeat gets through)', async () => {
    fx.server.handlers.hello = helloCountingClaims;
    fx.server.handlers.claim = () => ({
      status: 503,
      body: { code: 'unavailable', message: 'busy' },
    });
    const { logger, failingNow } = recordingLogger();
    const clock = new FakeClock();
    const agent = makeAgent(clock, { logger });
    const running = agent.run();
    try {
      await fx.server.until(() => fx.server.calls('claim').length > 0, 'a claim');
      await clock.untilSleeping();
      const before = beats();
      for (let i = 0; i < 3; i += 1) {
        // Each heartbeat that gets through makes the server reachable again until the claim's
        // next retry fails: the interval ends while the claim is failing.
        await fx.server.until(failingNow, 'a failed claim');
        await oneInterval(clock);
      }
      expect(beats() - before).toBe(3);
    } finally {
      agent.stop();
    }
    await running;
  });

  it('heartbeats as before with a server that does not count claims, and claims with its wait', async () => {
    const { during, claims } = await whileClaimIsHeld();
    expect(claims).toHaveLength(1);
    expect(during).toBe(3);
    expect(claims[0]?.body).toEqual({ wait_seconds: 25 });
  });
});
