import { rm } from 'node:fs/promises';
import type { ClaimedRun } from '@rota/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../src/agent.js';
import { silentLogger } from '../src/logger.js';
import { makeZip, sha256, tempDir } from './helpers/archives.js';
import { FakeRotaServer, type Handler } from './helpers/fake-server.js';

/**
 * Issue 18: a server that counts a claim's arrival as a heartbeat (hello's `claim_is_heartbeat`)
 * lets an idle agent keep one connection: it claims every heartbeat interval and sends no
 * heartbeat while that claim is open. It heartbeats as before while it holds a run, when a
 * call fails, and with a server that does not say so.
 */
const ROBOT = `setInterval(() => console.log('tick'), 50);`;
const PACKAGE = makeZip([{ name: 'main.js', data: ROBOT }]);
const DOWNLOAD_PATH = `/api/rota/agent/api/v1/package/${sha256(PACKAGE)}`;

function looping(id: number): ClaimedRun {
  return {
    execution_id: id,
    attempt: 1,
    timeout_minutes: 60,
    timeout_seconds: 3600,
    robot: {
      rota_robots_id: 10,
      name: 'Robot',
      executor: `${JSON.stringify(process.execPath)} main.js`,
      remote_root: null,
    },
    package: {
      rota_robot_versions_id: 3,
      version: '1.0.0',
      sha256: sha256(PACKAGE),
      size_bytes: PACKAGE.length,
      format: 'zip',
      download_path: DOWNLOAD_PATH,
    },
    environment: { ROTA_EXECUTION_ID: String(id), ROTA_EXECUTION_TOKEN: `run-token-${id}` },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

/** hello as a server of this version answers it: heartbeats every second, claims count. */
const helloCountingClaims: Handler = () => ({
  status: 200,
  body: {
    data: {
      rota_nodes_id: 1,
      name: 'test-agent',
      rota_vms_id: 1,
      heartbeat_seconds: 1,
      lease_seconds: 30,
      claim_wait_seconds: 25,
      claim_is_heartbeat: true,
    },
  },
});

/** A claim that finds nothing, held open for `ms` (longer than any heartbeat interval here). */
const heldClaim =
  (ms: number): Handler =>
  async () => {
    await sleep(ms);
    return { status: 200, body: { data: null } };
  };

function makeAgent(): Agent {
  return new Agent({
    servers: [server.url],
    token: 'agent-secret',
    workDir,
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

const beats = () => server.calls('heartbeat').length;

describe('an open claim standing for the heartbeat', () => {
  it('sends no heartbeat while an idle agent’s claim is open, and claims with a wait of one heartbeat interval', async () => {
    server.handlers.hello = helloCountingClaims;
    server.handlers.claim = heldClaim(3_500);
    const agent = makeAgent();
    const running = agent.run();
    try {
      await server.until(() => server.calls('claim').length === 1, 'a claim');
      const before = beats();
      // Three heartbeat intervals with the claim open.
      await sleep(3_200);
      expect(server.calls('claim')).toHaveLength(1);
      expect(beats()).toBe(before);
      // Sent at most once, before the first claim left (the agent first says hello).
      expect(before).toBeLessThanOrEqual(1);
      expect(server.calls('claim')[0]?.body).toEqual({ wait_seconds: 1 });
    } finally {
      agent.stop();
    }
    await running;
  });

  it('heartbeats while it holds a run, listing it, and hears the cancel', async () => {
    server.handlers.hello = helloCountingClaims;
    let handedOut = false;
    server.handlers.claim = async () => {
      if (!handedOut) {
        handedOut = true;
        return { status: 200, body: { data: looping(51) } };
      }
      await sleep(3_000);
      return { status: 200, body: { data: null } };
    };
    server.handlers.heartbeat = (body) => ({
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
      await server.until(() => server.calls('finish').length > 0, 'the cancelled result');
    } finally {
      agent.stop();
    }
    await running;
    expect(
      server.calls('heartbeat').some((r) => r.body.running.some((x: any) => x.execution_id === 51)),
    ).toBe(true);
    expect(server.calls('finish')[0]?.body).toMatchObject({
      execution_id: 51,
      status: 'cancelled',
    });
  });

  it('heartbeats while claims fail (the claim may be stuck retrying where a heartbeat gets through)', async () => {
    server.handlers.hello = helloCountingClaims;
    server.handlers.claim = () => ({ status: 503, body: { code: 'unavailable', message: 'busy' } });
    const agent = makeAgent();
    const running = agent.run();
    try {
      await server.until(() => server.calls('claim').length > 0, 'a claim');
      const before = beats();
      await sleep(3_200);
      expect(beats() - before).toBeGreaterThanOrEqual(2);
    } finally {
      agent.stop();
    }
    await running;
  });

  it('heartbeats as before with a server that does not count claims, and claims with its wait', async () => {
    server.handlers.claim = heldClaim(3_500);
    const agent = makeAgent();
    const running = agent.run();
    try {
      await server.until(() => server.calls('claim').length === 1, 'a claim');
      const before = beats();
      await sleep(3_200);
      expect(server.calls('claim')).toHaveLength(1);
      expect(beats() - before).toBeGreaterThanOrEqual(2);
      expect(server.calls('claim')[0]?.body).toEqual({ wait_seconds: 25 });
    } finally {
      agent.stop();
    }
    await running;
  });
});
