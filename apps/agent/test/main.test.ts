import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { tempDir } from './helpers/archives.js';
import { runCli } from './helpers/cli.js';
import { FakeRotaServer } from './helpers/fake-server.js';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

let workDir: string;
beforeEach(async () => {
  workDir = await tempDir();
});
afterEach(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('rota-agent CLI', () => {
  it('exits 2 listing every bad option', async () => {
    const { code, stderr } = await runCli(['--concurrency', 'many', '--colour']);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown option --colour');
    expect(stderr).toContain('--server (or ROTA_SERVER) is required');
    expect(stderr).toContain('--token (or ROTA_AGENT_TOKEN) is required');
    expect(stderr).toContain('--concurrency must be a whole number from 1 to 64');
    expect(stderr).toContain('Usage: rota-agent');
  });

  it('exits 3 on a refused token, without printing it', async () => {
    const server = await new FakeRotaServer().start();
    server.handlers.hello = () => ({ status: 401, body: { code: 'unauthorized', message: 'no' } });
    try {
      const { code, stderr } = await runCli(['--server', server.url, '--work-dir', workDir], {
        ROTA_AGENT_TOKEN: 'very-secret-token',
      });
      expect(code).toBe(3);
      expect(stderr).toMatch(/refused the agent token/);
      expect(stderr).not.toContain('very-secret-token');
      expect(server.calls('hello')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('stops cleanly on SIGTERM with exit code 0', async () => {
    const server = await new FakeRotaServer().start();
    try {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', MAIN, '--server', server.url, '--token', 't', '--work-dir', workDir],
        { stdio: 'ignore' },
      );
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      try {
        await server.until(() => server.calls('claim').length > 0, 'a claim');
      } catch (error) {
        child.kill('SIGKILL');
        throw error;
      }
      child.kill('SIGTERM');
      const code = await closed;
      expect(code).toBe(0);
    } finally {
      await server.close();
    }
  });
});
