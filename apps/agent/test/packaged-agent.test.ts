import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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
