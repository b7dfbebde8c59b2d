import { rm } from 'node:fs/promises';
import type { ClaimedRun } from '@rota/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../src/agent.js';
import { silentLogger } from '../src/logger.js';
import { UnauthorizedError } from '../src/protocol-client.js';
import { makeZip, sha256, tempDir } from './helpers/archives.js';
import { FakeRotaServer } from './helpers/fake-server.js';

/**
 * "Generate new token" (issue 16): the server refuses the old token a new claim but still takes
 * its heartbeats and results. An agent with a robot running finishes it, reports it, then stops.
 */
const ROBOT = `setTimeout(() => process.exit(0), 600);`;
const PACKAGE = makeZip([{ name: 'main.js', data: ROBOT }]);
const PACKAGE_SHA = sha256(PACKAGE);
const DOWNLOAD_PATH = `/api/rota/agent/api/v1/package/${PACKAGE_SHA}`;

const claimed = (id: number): ClaimedRun => ({
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
    sha256: PACKAGE_SHA,
    size_bytes: PACKAGE.length,
    format: 'zip',
    download_path: DOWNLOAD_PATH,
  },
  environment: { ROTA_EXECUTION_ID: String(id), ROTA_EXECUTION_TOKEN: `run-token-${id}` },
});

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

describe('a replaced agent token', () => {
  it('finishes and reports the running robot, claims nothing more, then stops as refused', async () => {
    let handedOut = false;
    server.handlers.claim = () => {
      if (!handedOut) {
        handedOut = true;
        return { status: 200, body: { data: claimed(61) } };
      }
      // The token was replaced meanwhile: a new claim is refused.
      return { status: 401, body: { code: 'unauthorized', message: 'no' } };
    };
    const agent = new Agent({
      servers: [server.url],
      token: 'old-token',
      workDir,
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
    const finish = server.calls('finish').filter((r) => r.body.execution_id === 61);
    // Not killed (a grace of 0 s would have): it ran to its end and was reported.
    expect(finish.at(-1)?.body).toMatchObject({ status: 'success', exit_code: 0 });
    const claims = server.requests.filter((r) => r.call === 'claim');
    expect(claims.length).toBeLessThanOrEqual(3);
  });
});
