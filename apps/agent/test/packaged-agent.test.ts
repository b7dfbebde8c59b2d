import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SupervisorConfig, SupervisorMessage } from '../src/supervisor.js';

/**
 * The packaged agent (`npm run package:agent`): the executable answers as the agent and, started
 * with its hidden sub-command, as a run's supervisor, whose dead-man switch still kills the robot
 * when its agent goes. Skipped when apps/agent/release has not been built.
 */
const RELEASE = fileURLToPath(new URL('../release/', import.meta.url));
const EXECUTABLE = `${RELEASE}rota-agent-linux-x64`;
const BUNDLE = `${RELEASE}rota-agent.cjs`;
const SCRIPT = fileURLToPath(new URL('../scripts/package-agent.mjs', import.meta.url));
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const built = existsSync(EXECUTABLE) && existsSync(BUNDLE);
if (!built)
  console.warn(`packaged-agent.test.ts skipped: ${EXECUTABLE} is missing (npm run package:agent)`);

const manifestVersion = () =>
  (JSON.parse(readFileSync(`${RELEASE}manifest.json`, 'utf8')) as { version: string }).version;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!built)('the packaged agent', () => {
  it('the executable and the bundle say the version stamped into the build', () => {
    const clean = { PATH: '/usr/bin:/bin' };
    const executable = spawnSync(EXECUTABLE, ['--version'], { env: clean, encoding: 'utf8' });
    expect(executable.stdout).toBe(`${manifestVersion()}\n`);
    const bundle = spawnSync(process.execPath, [BUNDLE, '--version'], {
      env: clean,
      encoding: 'utf8',
    });
    expect(bundle.stdout).toBe(`${manifestVersion()}\n`);
  });

  it('both executables carry the application: their fuse is flipped, their manifest right', () => {
    const manifest = JSON.parse(readFileSync(`${RELEASE}manifest.json`, 'utf8')) as {
      files: Record<string, { file: string; sha256: string; bytes: number }>;
    };
    expect(Object.keys(manifest.files).sort()).toEqual(['linux-x64', 'win-x64']);
    for (const { file, sha256, bytes } of Object.values(manifest.files)) {
      const content = readFileSync(`${RELEASE}${file}`);
      expect(content.length).toBe(bytes);
      expect(createHash('sha256').update(content).digest('hex')).toBe(sha256);
      // postject turns the fuse's last character from 0 to 1 when it injects the blob; a Node
      // binary without an application in it keeps 0 and runs as plain node.
      expect(content.includes(`${SEA_FUSE}:1`)).toBe(true);
    }
    // The Windows one is a PE file (MZ), the Linux one an ELF file.
    expect(readFileSync(`${RELEASE}rota-agent-win-x64.exe`).subarray(0, 2).toString()).toBe('MZ');
    expect(readFileSync(EXECUTABLE).subarray(1, 4).toString()).toBe('ELF');
  });

  it('a second build stamps another version, elsewhere, leaving the release as it was', async () => {
    const before = readFileSync(`${RELEASE}manifest.json`, 'utf8');
    const out = await mkdtemp(path.join(os.tmpdir(), 'rota-agent-build-'));
    try {
      const build = spawnSync(process.execPath, [SCRIPT], {
        env: {
          ...process.env,
          ROTA_AGENT_VERSION: '9.9.9-second',
          ROTA_AGENT_TARGETS: 'linux-x64',
          ROTA_AGENT_RELEASE_DIR: out,
        },
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(build.status).toBe(0);
      const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as {
        version: string;
        files: Record<string, unknown>;
      };
      expect(manifest.version).toBe('9.9.9-second');
      expect(Object.keys(manifest.files)).toEqual(['linux-x64']);
      const second = spawnSync(path.join(out, 'rota-agent-linux-x64'), ['--version'], {
        env: { PATH: '/usr/bin:/bin' },
        encoding: 'utf8',
      });
      expect(second.stdout).toBe('9.9.9-second\n');
      expect(readFileSync(`${RELEASE}manifest.json`, 'utf8')).toBe(before);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 150_000);

  it('as a supervisor, reports the robot and kills its tree when the agent goes', async () => {
    const config: SupervisorConfig = {
      executor: 'echo robot up; sleep 300',
      cwd: RELEASE,
      marker: 'ROTA_AGENT_RUN=packaged-test',
    };
    const supervisor = spawn(EXECUTABLE, ['__supervise', JSON.stringify(config)], {
      env: { PATH: '/usr/bin:/bin', ROTA_AGENT_RUN: 'packaged-test' },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    let output = '';
    supervisor.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const started = await new Promise<SupervisorMessage>((resolve) =>
      supervisor.on('message', (message: SupervisorMessage) => resolve(message)),
    );
    expect(started).toMatchObject({ type: 'started', pid: expect.any(Number) });
    const robot = (started as { pid: number }).pid;
    expect(alive(robot)).toBe(true);
    const exited = new Promise((resolve) => supervisor.once('exit', resolve));
    // As when the agent dies: the channel closes, and the supervisor ends the robot's group.
    supervisor.disconnect();
    expect(await exited).toBe(0);
    for (let i = 0; alive(robot) && i < 200; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(alive(robot)).toBe(false);
    expect(output).toContain('robot up');
  });
});
