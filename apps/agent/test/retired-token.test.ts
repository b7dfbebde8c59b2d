import { describe, expect, it } from 'vitest';
import { Agent } from '../src/agent.js';
import { silentLogger } from '../src/logger.js';
import { UnauthorizedError } from '../src/protocol-client.js';
import { claimedRun, robotPackage, useFakeServer } from './helpers/robot-run.js';

/**
 * "Generate new token": the server refuses the old token a new claim but still takes
 * its heartbeats and results. An agent with a robot running finishes it, reports it, then stops.
 */
const PACKAGE = robotPackage(`setTimeout(() => process.exit(0), 600);`);
const fx = useFakeServer(PACKAGE);

describe('a replaced agent token', () => {
  it('finishes and reports the running robot, claims nothing more, then stops as refused', async () => {
    let handedOut = false;
    fx.server.handlers.claim = () => {
      if (!handedOut) {
        handedOut = true;
        return { status: 200, body: { data: claimedRun(61, PACKAGE) } };
      }
      // The token was replaced meanwhile: a new claim is refused.
      return { status: 401, body: { code: 'unauthorized', message: 'no' } };
    };
    const agent = new Agent({
      servers: [fx.server.url],
      token: 'old-token',
      workDir: fx.workDir,
      concurrency: 2,
      graceSeconds: 0,
      logger: silentLogger,
      timings: {
        backoff: { initialMs: 20, maxMs: 100 },
        logFlushMs: 50,
        logIdleFlushMs: 300,
        killGraceMs: 1_000,
        deliveryGraceMs: 1_000,
        outputCloseMs: 500,
      },
    });
    await expect(agent.run()).rejects.toBeInstanceOf(UnauthorizedError);
    const finish = fx.server.calls('finish').filter((r) => r.body.execution_id === 61);
    // Not killed (a grace of 0 s would have): it ran to its end and was reported.
    expect(finish.at(-1)?.body).toMatchObject({ status: 'success', exit_code: 0 });
    const claims = fx.server.requests.filter((r) => r.call === 'claim');
    expect(claims.length).toBeLessThanOrEqual(3);
  });
});
