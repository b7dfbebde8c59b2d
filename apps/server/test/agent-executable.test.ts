import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionOf, runNow } from './helpers/engine.js';
import {
  createPackagedRobot,
  logLines,
  RELEASE,
  releaseManifest,
  startExecutable,
  startAgentServer,
  type AgentServer,
  type RunningExecutable,
} from './helpers/packaged-agent.js';
import { until } from './helpers/real-agent.js';

/**
 * The packaged Linux agent (`npm run package:agent`) as an operator puts it on a machine: the
 * one file alone in an empty folder, no Node on PATH, no node_modules anywhere near, its token
 * in a file. It connects, claims a real run, runs a shell robot, ships the robot's output and
 * result, and stops cleanly on SIGTERM.
 */
const EXECUTABLE = path.join(RELEASE, 'rota-agent-linux-x64');
const built = existsSync(EXECUTABLE);
if (!built) {
  console.warn(
    `agent-executable.test.ts skipped: ${EXECUTABLE} is missing; build it with npm run package:agent`,
  );
}

// Besides its output, the robot names the programs above it: its shell, the run's launcher (a
// shell), then the agent, which must be the copied executable (no Node of the machine's).
const ROBOT_SH = [
  'echo "robot says hello from $(pwd)"',
  'p=$PPID',
  'while [ "$p" -gt 1 ]; do',
  '  echo "ancestor $(readlink /proc/$p/exe)"',
  '  p=$(cut -d" " -f4 /proc/$p/stat)',
  'done',
  'echo "execution $ROTA_EXECUTION_ID attempt $ROTA_ATTEMPT"',
  'echo "a warning" >&2',
  'exit 0',
  '',
].join('\n');

describe.skipIf(!built)('the packaged Linux agent, alone in an empty folder', () => {
  let server: AgentServer;
  let folder: string;
  let outside: string;
  let agent: RunningExecutable;
  const upgrades: string[] = [];

  beforeAll(async () => {
    server = await startAgentServer('Executable');
    server.app.server.on('upgrade', (req: IncomingMessage) => upgrades.push(req.url ?? ''));
    folder = await mkdtemp(path.join(os.tmpdir(), 'rota-packaged-'));
    // The token file and the work folder live elsewhere: the executable's folder holds it alone.
    outside = await mkdtemp(path.join(os.tmpdir(), 'rota-packaged-state-'));
    await copyFile(EXECUTABLE, path.join(folder, 'rota-agent-linux-x64'));
    const tokenFile = path.join(outside, 'token');
    await writeFile(tokenFile, `${server.token}\n`, { mode: 0o600 });
    expect(await readdir(folder)).toEqual(['rota-agent-linux-x64']);
    agent = startExecutable(
      './rota-agent-linux-x64',
      [
        '--server',
        server.base,
        '--token-file',
        tokenFile,
        '--work-dir',
        path.join(outside, 'work'),
        '--grace-seconds',
        '5',
      ],
      { cwd: folder, env: { PATH: '/usr/bin:/bin', HOME: outside } },
    );
  });

  afterAll(async () => {
    agent?.process.kill('SIGKILL');
    await server?.close();
    for (const dir of [folder, outside]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is the build its manifest describes', () => {
    const manifest = releaseManifest();
    const bytes = readFileSync(EXECUTABLE);
    expect(manifest?.files['linux-x64']).toEqual({
      file: 'rota-agent-linux-x64',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
    });
  });

  it('connects and says its stamped version', async () => {
    await until('the packaged agent to connect', async () =>
      agent.output().includes('connected to'),
    );
    const shown = await server.admin.post('/api/rota/node/api/v1/show', { id: server.agentId });
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ version: releaseManifest()?.version });
    // The bundled WebSocket client works: the agent talks over the stream, not HTTP alone.
    // (It opens the stream after its hello: waited for, not expected at once.)
    await until('the packaged agent to open its stream', async () =>
      upgrades.includes('/api/rota/agent/api/v1/stream'),
    );
    expect(agent.output()).not.toContain('offers no stream');
    // Its token went by file only: not in its output, not on its command line.
    expect(agent.output()).not.toContain(server.token);
    const cmdline = readFileSync(`/proc/${agent.process.pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain(server.token);
  });

  it('claims a run, runs a shell robot and ships its output and result', async () => {
    const robot = await createPackagedRobot(server, 'Packaged shell robot', 'sh robot.sh', [
      { name: 'robot.sh', data: ROBOT_SH },
    ]);
    const id = await runNow(server.admin, { id: robot });
    const final = await until(`execution ${id} to end`, async () => {
      const e = await executionOf(server.admin, id);
      return ['queued', 'processing'].includes(e.status) ? undefined : e;
    });
    expect(final).toMatchObject({ status: 'success', exit_code: 0, attempts: 1 });
    const lines = await until('the robot output to be shipped', async () => {
      const shipped = await logLines(server, id);
      return shipped.some((l) => l.includes('a warning')) ? shipped : undefined;
    });
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^stdout: robot says hello from \//),
        `stdout: execution ${id} attempt 1`,
        'stderr: a warning',
      ]),
    );
    const ancestors = lines
      .filter((l) => l.startsWith('stdout: ancestor '))
      .map((l) => l.slice('stdout: ancestor '.length))
      .filter((exe) => !/\/(da|ba)?sh$/.test(exe));
    // Between the robot and the packaged agent only shells stand (the run's launcher): no Node
    // but the executable itself, so the machine needs none.
    const copied = path.join(folder, 'rota-agent-linux-x64');
    expect(ancestors[0]).toBe(copied);
  });

  it('stops cleanly on SIGTERM', async () => {
    agent.process.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
    expect(agent.output()).toContain('stopped');
  });
});
