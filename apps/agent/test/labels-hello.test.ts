import { rm } from 'node:fs/promises';
import { agentHelloSchema } from '@rota/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../src/agent.js';
import { silentLogger } from '../src/logger.js';
import { tempDir } from './helpers/archives.js';
import { FakeRotaServer } from './helpers/fake-server.js';

let workDir: string;
beforeEach(async () => {
  workDir = await tempDir();
});
afterEach(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** The hello's labels: what --labels declared, in a body the server's schema takes. */
async function helloOf(labels?: string[]) {
  const server = await new FakeRotaServer().start();
  try {
    const agent = new Agent({
      servers: [server.url],
      token: 'agent-secret',
      workDir,
      concurrency: 1,
      graceSeconds: 1,
      logger: silentLogger,
      ...(labels ? { labels } : {}),
    });
    const running = agent.run();
    await server.until(() => server.calls('hello').length > 0, 'a hello');
    agent.stop();
    await running;
    return agentHelloSchema.parse(server.calls('hello')[0]!.body);
  } finally {
    await server.close();
  }
}

describe('the hello’s labels', () => {
  it('are the ones --labels declared', async () => {
    expect((await helloOf(['excel', 'sap'])).labels).toEqual(['excel', 'sap']);
  });

  it('are left out when none were declared (the server adds the OS and architecture)', async () => {
    expect((await helloOf()).labels).toBeUndefined();
  });
});
