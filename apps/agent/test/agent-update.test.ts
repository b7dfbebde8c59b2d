import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_PROTOCOL_BASE, type AgentUpdateOffer } from '@rota/contract';
import { Agent } from '../src/agent.js';
import { createStderrLogger, silentLogger } from '../src/logger.js';
import { SelfUpdater } from '../src/update/self-update.js';
import { tempDir } from './helpers/archives.js';
import { FakeRotaServer } from './helpers/fake-server.js';
import { claimedRun, robotPackage } from './helpers/robot-run.js';

/** A robot that outlasts a heartbeat (1 s): an update offered while it runs must wait for it. */
const ROBOT_PACKAGE = robotPackage('setTimeout(() => process.exit(0), 1500);', '1.0.0');
const OLD = Buffer.from('#!/bin/sh\necho old agent\n');
const NEW = Buffer.from('#!/bin/sh\necho new agent\n');
const offer = (bytes: Buffer, sha256?: string): AgentUpdateOffer => ({
  version: '3.2.0',
  platform: 'linux-x64',
  sha256: sha256 ?? createHash('sha256').update(bytes).digest('hex'),
  bytes: bytes.length,
});

let server: FakeRotaServer;
let workDir: string;
let binDir: string;
let exe: string;
const logger = process.env.ROTA_AGENT_TEST_LOG ? createStderrLogger() : silentLogger;

beforeEach(async () => {
  server = await new FakeRotaServer().start();
  server.packages.set(ROBOT_PACKAGE.downloadPath, ROBOT_PACKAGE.data);
  server.packages.set(`${AGENT_PROTOCOL_BASE}/update/linux-x64`, NEW);
  workDir = await tempDir();
  binDir = await tempDir();
  exe = path.join(binDir, 'rota-agent');
  await writeFile(exe, OLD, { mode: 0o755 });
});
afterEach(async () => {
  await server.close();
  for (const dir of [workDir, binDir]) await rm(dir, { recursive: true, force: true });
});

/** Offers `update` in heartbeats sent while the agent holds a run. */
function offerWhileRunning(update: AgentUpdateOffer) {
  server.handlers.heartbeat = (body: { running: unknown[] }) => ({
    status: 200,
    body: { data: { cancel: [], ...(body.running.length > 0 ? { update } : {}) } },
  });
}

function makeAgent() {
  return new Agent({
    servers: [server.url],
    token: 'agent-secret',
    workDir,
    concurrency: 1,
    graceSeconds: 5,
    logger,
    updater: new SelfUpdater({ exe, version: '3.1.0', logger, platform: 'linux-x64' }),
    timings: { backoff: { initialMs: 20, maxMs: 100 }, logFlushMs: 50, deliveryGraceMs: 1_000 },
  });
}

const indexOf = (call: string) => server.requests.findIndex((r) => r.call === call);

describe('an agent offered an update', () => {
  it('finishes its run and reports it, claims nothing more, then replaces itself and stops', async () => {
    offerWhileRunning(offer(NEW));
    server.claimQueue.push(claimedRun(1, ROBOT_PACKAGE), claimedRun(2, ROBOT_PACKAGE));
    const agent = makeAgent();
    await agent.run();
    expect(agent.updated).toBe(true);
    expect(server.calls('finish').map((r) => r.body.execution_id)).toEqual([1]);
    // Its result asked for no next run, and no claim followed: run 2 is still queued.
    expect(server.calls('finish')[0]!.body.claim).toBeUndefined();
    expect(server.claimQueue.map((r) => r.execution_id)).toEqual([2]);
    expect(indexOf('download')).toBeGreaterThan(-1);
    expect(server.requests.findLastIndex((r) => r.call === 'download')).toBeGreaterThan(
      indexOf('finish'),
    );
    expect(indexOf('goodbye')).toBeGreaterThan(indexOf('finish'));
    expect(await readFile(exe)).toEqual(NEW);
    expect((await readdir(binDir)).sort()).toEqual([
      'rota-agent',
      'rota-agent.previous',
      'update.json',
    ]);
  });

  it('whose download does not check out goes back to claiming and leaves that offer alone', async () => {
    offerWhileRunning(offer(NEW, 'f'.repeat(64)));
    server.claimQueue.push(claimedRun(1, ROBOT_PACKAGE), claimedRun(2, ROBOT_PACKAGE));
    const agent = makeAgent();
    const running = agent.run();
    await server.until(() => server.calls('finish').length === 2, 'both runs to finish');
    agent.stop();
    await running;
    expect(agent.updated).toBe(false);
    // Offered again with every heartbeat of run 2: fetched once only.
    expect(server.calls('download').filter((r) => r.body.includes('/update/'))).toHaveLength(1);
    expect(await readFile(exe)).toEqual(OLD);
    expect(await readdir(binDir)).toEqual(['rota-agent']);
  });

  it('run from source (no updater) ignores offers', async () => {
    offerWhileRunning(offer(NEW));
    server.claimQueue.push(claimedRun(1, ROBOT_PACKAGE));
    const agent = new Agent({
      servers: [server.url],
      token: 'agent-secret',
      workDir,
      concurrency: 1,
      graceSeconds: 5,
      logger,
      timings: { backoff: { initialMs: 20, maxMs: 100 }, logFlushMs: 50 },
    });
    const running = agent.run();
    await server.until(() => server.calls('finish').length === 1, 'the run to finish');
    await server.until(() => server.calls('claim').length >= 2, 'it to claim again');
    agent.stop();
    await running;
    expect(server.calls('download').filter((r) => r.body.includes('/update/'))).toHaveLength(0);
    expect(server.calls('hello')[0]!.body.packaged).toBe(false);
  });
});
