import os from 'node:os';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { agentHelloSchema } from '@rota/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../src/agent.js';
import { collectFacts, freeDiskBytes, modeFromEnv } from '../src/facts.js';
import { silentLogger } from '../src/logger.js';
import { agentVersion } from '../src/version.js';
import { tempDir } from './helpers/archives.js';
import { FakeRotaServer } from './helpers/fake-server.js';

let workDir: string;
beforeEach(async () => {
  workDir = await tempDir();
});
afterEach(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('agent facts', () => {
  it('say what this machine is, in a hello the server’s schema takes', async () => {
    const facts = await collectFacts(workDir, 'service');
    expect(agentHelloSchema.parse(facts)).toEqual(facts);
    expect(facts).toMatchObject({
      hostname: os.hostname(),
      version: agentVersion(),
      os: `${os.platform()} ${os.release()}`,
      arch: os.arch(),
      cpus: os.availableParallelism(),
      memory_bytes: os.totalmem(),
      mode: 'service',
    });
    expect(facts.os_version).toEqual(expect.any(String));
    expect(facts.free_disk_bytes).toBeGreaterThan(0);
  });

  it('read free disk from the nearest existing folder when the work dir is not made yet', async () => {
    const free = await freeDiskBytes(path.join(workDir, 'not', 'yet'));
    expect(free).toEqual(expect.any(Number));
    expect(free).toBeGreaterThan(0);
  });

  it('take the mode from ROTA_AGENT_MODE, console when unset or unknown', () => {
    expect(modeFromEnv({ ROTA_AGENT_MODE: 'desktop' })).toBe('desktop');
    expect(modeFromEnv({ ROTA_AGENT_MODE: ' service ' })).toBe('service');
    expect(modeFromEnv({ ROTA_AGENT_MODE: 'daemon' })).toBe('console');
    expect(modeFromEnv({})).toBe('console');
  });

  it('go with the agent’s hello, its mode as it was started', async () => {
    const server = await new FakeRotaServer().start();
    try {
      const agent = new Agent({
        servers: [server.url],
        token: 'agent-secret',
        workDir,
        concurrency: 1,
        graceSeconds: 1,
        logger: silentLogger,
        mode: 'desktop',
      });
      const running = agent.run();
      await server.until(() => server.calls('hello').length > 0, 'a hello');
      agent.stop();
      await running;
      const [hello] = server.calls('hello');
      expect(agentHelloSchema.parse(hello!.body)).toMatchObject({
        hostname: os.hostname(),
        arch: os.arch(),
        mode: 'desktop',
        free_disk_bytes: expect.any(Number),
      });
    } finally {
      await server.close();
    }
  });
});
