import { describe, expect, it } from 'vitest';
import { Agent } from '../src/agent.js';
import { silentLogger } from '../src/logger.js';
import { helloAnswer, type Handler } from './helpers/fake-server.js';
import { claimedRun, robotPackage, useFakeServer } from './helpers/robot-run.js';

/**
 * A server that counts a claim's arrival as a heartbeat (hello's `claim_is_heartbeat`)
 * lets an idle agent keep one connection: it claims every heartbeat interval and sends no
 * heartbeat while that claim is open. It heartbeats as before while it holds a run, when a
 * call fails, and with a server that does not say so.
 */
const PACKAGE = robotPackage(`setInterval(() => console.log('tick'), 50);`);
const fx = useFakeServer(PACKAGE);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** hello as a server of this version answers it: heartbeats every second, claims count. */
const helloCountingClaims: Handler = () => helloAnswer({ claim_is_heartbeat: true });

/** A claim that finds nothing, held open for `ms` (longer than any heartbeat interval here). */
const heldClaim =
  (ms: number): Handler =>
  async () => {
    await sleep(ms);
    return { status: 200, body: { data: null } };
  };

function makeAgent(): Agent {
  return new Agent({
    servers: [fx.server.url],
    token: 'agent-secret',
    workDir: fx.workDir,
    concurrency: 1,
    graceSeconds: 1,
    logger: silentLogger,
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
 * An agent whose first claim the server holds open for 3.5 s (as `claim` answers it): the
 * heartbeats sent before that claim and during three heartbeat intervals of it, and the claims.
 */
async function whileClaimIsHeld() {
  fx.server.handlers.claim = heldClaim(3_500);
  const agent = makeAgent();
  const running = agent.run();
  try {
    // The first heartbeat leaves before the first claim, but may arrive after it.
    await fx.server.until(
      () => fx.server.calls('claim').length === 1 && beats() > 0,
      'a claim and the first heartbeat',
    );
    const before = beats();
    await sleep(3_200);
    return { before, during: beats() - before, claims: fx.server.calls('claim') };
  } finally {
    agent.stop();
    await running;
  }
}

describe('an open claim standing for the heartbeat', () => {
  it('sends no heartbeat while an idle agent’s claim is open, and claims with a wait of one heartbeat interval', async () => {
    fx.server.handlers.hello = helloCountingClaims;
    const { before, during, claims } = await whileClaimIsHeld();
    expect(claims).toHaveLength(1);
    expect(during).toBe(0);
    // Only the one sent as the agent started, before its first claim left.
    expect(before).toBeLessThanOrEqual(1);
    expect(claims[0]?.body).toEqual({ wait_seconds: 1 });
  });

  it('heartbeats while it holds a run, listing it, and hears the cancel', async () => {
    fx.server.handlers.hello = helloCountingClaims;
    let handedOut = false;
    fx.server.handlers.claim = async () => {
      if (!handedOut) {
        handedOut = true;
        return { status: 200, body: { data: claimedRun(51, PACKAGE) } };
      }
      await sleep(3_000);
      return { status: 200, body: { data: null } };
    };
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
    const agent = makeAgent();
    const running = agent.run();
    try {
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
    const agent = makeAgent();
    const running = agent.run();
    try {
      await fx.server.until(() => fx.server.calls('claim').length > 0, 'a claim');
      const before = beats();
      await sleep(3_200);
      expect(beats() - before).toBeGreaterThanOrEqual(2);
    } finally {
      agent.stop();
    }
    await running;
  });

  it('heartbeats as before with a server that does not count claims, and claims with its wait', async () => {
    const { during, claims } = await whileClaimIsHeld();
    expect(claims).toHaveLength(1);
    expect(during).toBeGreaterThanOrEqual(2);
    expect(claims[0]?.body).toEqual({ wait_seconds: 25 });
  });
});
