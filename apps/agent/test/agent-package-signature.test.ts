import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPackage } from '@rota/archive-check';
import type { AgentLogLine } from '@rota/contract';
import { Agent } from '../src/agent.js';
import { silentLogger } from '../src/logger.js';
import { claimedRun, robotPackage, useFakeServer } from './helpers/robot-run.js';

/** A signed package runs; one whose signature is not its key's is refused before unpacking. */
const PACKAGE = robotPackage(`console.log('signed robot ran');`);
const fx = useFakeServer(PACKAGE);

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();

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

const linesOf = (id: number) =>
  fx.server
    .calls('logs')
    .filter((r) => r.body.execution_id === id)
    .flatMap((r) => (r.body.lines as AgentLogLine[]).map((line) => line.line));

const finishOf = (id: number) =>
  fx.server.calls('finish').find((r) => r.body.execution_id === id)?.body;

describe('the agent and signed packages', () => {
  it('runs a package whose signature verifies and refuses a forged one without unpacking it', async () => {
    const good = claimedRun(1, PACKAGE);
    good.package!.signature = {
      signature: signPackage(PACKAGE.sha256, privateKey),
      public_key: pem,
    };
    const forged = claimedRun(2, PACKAGE);
    const stranger = generateKeyPairSync('ed25519').privateKey;
    forged.package!.signature = {
      signature: signPackage(PACKAGE.sha256, stranger),
      public_key: pem,
    };
    // The forged one first: it must not leave the package unpacked for the next.
    fx.server.claimQueue.push(forged, good);

    const agent = makeAgent();
    const running = agent.run();
    try {
      await fx.server.until(
        () => finishOf(1) !== undefined && finishOf(2) !== undefined,
        'both results',
      );
    } finally {
      agent.stop();
    }
    await running;
    expect(finishOf(2)).toMatchObject({ status: 'application_error' });
    expect(finishOf(2)?.message).toMatch(/signature does not match/);
    expect(linesOf(2).some((line) => line.startsWith('unpacked package'))).toBe(false);
    expect(finishOf(1)).toMatchObject({ status: 'success', exit_code: 0 });
    expect(linesOf(1)).toContain('signed robot ran');
  });
});
