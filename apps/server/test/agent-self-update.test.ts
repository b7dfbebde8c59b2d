import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_UPDATED_EXIT_CODE } from '@rota/contract';
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
 * The packaged Linux agent updating itself: two builds of this source with different version
 * stamps, the server shipping the newer; the older alone in an empty folder, run by a service
 * manager that starts it again when it exits 75 (as systemd's Restart=always would). Asked to
 * update while a robot runs, it lets the run finish, then downloads, checks, replaces itself
 * and comes back saying the newer version. A release whose SHA-256 does not match leaves it as
 * it was, claiming again.
 */
const built = existsSync(path.join(RELEASE, 'rota-agent-linux-x64'));
if (!built) {
  console.warn(
    `agent-self-update.test.ts skipped: ${RELEASE}/rota-agent-linux-x64 is missing; build it with npm run package:agent`,
  );
}
const SCRIPT = fileURLToPath(new URL('../../agent/scripts/package-agent.mjs', import.meta.url));
const FILE = 'rota-agent-linux-x64';
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A Linux-only build of this source, stamped `version`, in a folder of its own. */
async function buildAgent(version: string): Promise<string> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'rota-agent-build-'));
  const build = spawnSync(process.execPath, [SCRIPT], {
    env: {
      ...process.env,
      ROTA_AGENT_VERSION: version,
      ROTA_AGENT_TARGETS: 'linux-x64',
      ROTA_AGENT_RELEASE_DIR: out,
    },
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(build.status, build.stderr).toBe(0);
  return out;
}

/**
 * systemd's Restart=always in a few lines: the executable is started again whenever it exits
 * with 75 (an update), and the exit codes are kept.
 */
function superviseAgent(command: string, args: string[], cwd: string, home: string) {
  const exits: (number | null)[] = [];
  let current: RunningExecutable;
  let stopped = false;
  let earlier = '';
  const start = () => {
    current = startExecutable(command, args, { cwd, env: { PATH: '/usr/bin:/bin', HOME: home } });
    void current.exited.then((code) => {
      exits.push(code);
      earlier += current.output();
      if (!stopped && code === AGENT_UPDATED_EXIT_CODE) start();
    });
  };
  start();
  return {
    exits,
    output: () => earlier + current.output(),
    async stop() {
      stopped = true;
      current.process.kill('SIGTERM');
      await current.exited;
    },
  };
}

const ROBOT = (flag: string) =>
  [
    'echo "robot started"',
    // Slow until the test lets it end: the update must wait for it.
    `while [ ! -f '${flag}' ]; do sleep 0.1; done`,
    'echo "robot done"',
    'exit 0',
    '',
  ].join('\n');

async function endOf(server: AgentServer, id: number) {
  return until(`execution ${id} to end`, async () => {
    const e = await executionOf(server.admin, id);
    return ['queued', 'processing'].includes(e.status) ? undefined : e;
  });
}

describe.skipIf(!built)('the packaged agent updating itself', () => {
  const dirs: string[] = [];
  let older: string;
  let newer: string;
  let olderVersion: string;
  let newerVersion: string;

  beforeAll(async () => {
    const [major, minor, patch] = (releaseManifest()?.version ?? '3.0.0').split(/[.-]/).map(Number);
    olderVersion = `${major}.${minor}.${patch}`;
    newerVersion = `${major}.${minor}.${(patch ?? 0) + 1}`;
    // Both from this source, so the older one knows how to update itself.
    older = await buildAgent(olderVersion);
    newer = await buildAgent(newerVersion);
    dirs.push(older, newer);
  }, 300_000);

  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** A server shipping `release`, the older agent alone in a folder under a service manager. */
  async function setUp(name: string, release: string) {
    const server = await startAgentServer(name, { agentReleaseDir: release });
    const folder = await mkdtemp(path.join(os.tmpdir(), 'rota-self-update-'));
    const outside = await mkdtemp(path.join(os.tmpdir(), 'rota-self-update-state-'));
    dirs.push(folder, outside);
    await copyFile(path.join(older, FILE), path.join(folder, 'rota-agent'));
    const tokenFile = path.join(outside, 'token');
    await writeFile(tokenFile, `${server.token}\n`, { mode: 0o600 });
    const agent = superviseAgent(
      './rota-agent',
      [
        '--server',
        server.base,
        '--token-file',
        tokenFile,
        '--work-dir',
        path.join(outside, 'work'),
      ],
      folder,
      outside,
    );
    await until('the agent to say its facts', async () => {
      const shown = await server.admin.post('/api/rota/node/api/v1/show', { id: server.agentId });
      return shown.body.data.facts ? shown.body.data : undefined;
    });
    const flag = path.join(outside, 'robot-may-end');
    const robot = await createPackagedRobot(server, `${name} robot`, 'sh robot.sh', [
      { name: 'robot.sh', data: ROBOT(flag) },
    ]);
    return { server, folder, outside, agent, flag, robot };
  }

  const show = async (server: AgentServer) =>
    (await server.admin.post('/api/rota/node/api/v1/show', { id: server.agentId })).body.data;

  it('between runs: the run in progress finishes first, then it replaces itself and comes back newer', async () => {
    const { server, folder, agent, flag, robot } = await setUp('Self update', newer);
    try {
      expect(await show(server)).toMatchObject({
        version: olderVersion,
        update_available: true,
        update_requested: false,
      });
      const id = await runNow(server.admin, { id: robot });
      await until('the robot to start', async () =>
        (await logLines(server, id)).includes('stdout: robot started'),
      );

      const asked = await server.admin.post('/api/rota/node/api/v1/update', {
        ids: [server.agentId],
      });
      expect(asked.body.data).toEqual({ requested: 1 });
      await until('the agent to hear the offer', async () =>
        agent.output().includes(`update to ${newerVersion} offered`),
      );
      // The run holds the update back: nothing replaced, nothing downloaded yet.
      expect((await executionOf(server.admin, id)).status).toBe('processing');
      expect(await readdir(folder)).toEqual(['rota-agent']);
      expect(sha256(path.join(folder, 'rota-agent'))).toBe(sha256(path.join(older, FILE)));

      await writeFile(flag, '');
      expect(await endOf(server, id)).toMatchObject({ status: 'success', attempts: 1 });
      await until(
        'the agent to come back with the newer version',
        async () => {
          const shown = await show(server);
          return shown.version === newerVersion ? shown : undefined;
        },
        // 120 MB downloaded and hashed, then a restart.
        90_000,
      );
      expect(await show(server)).toMatchObject({
        update_available: false,
        update_requested: false,
      });
      expect(agent.exits).toEqual([AGENT_UPDATED_EXIT_CODE]);
      expect(sha256(path.join(folder, 'rota-agent'))).toBe(sha256(path.join(newer, FILE)));
      // Its first hello confirmed the update: the old executable and the marker are gone.
      await until('the update to be confirmed', async () =>
        agent.output().includes(`update from ${olderVersion} to ${newerVersion} confirmed`),
      );
      expect(await readdir(folder)).toEqual(['rota-agent']);
      const output = agent.output();
      expect(output.indexOf(`update to ${newerVersion}: SHA-256 checked`)).toBeGreaterThan(
        output.indexOf(`execution ${id} attempt 1: success`),
      );

      // The new executable takes runs like the old one did.
      const next = await runNow(server.admin, { id: robot });
      expect(await endOf(server, next)).toMatchObject({ status: 'success' });
    } finally {
      await agent.stop();
      await server.close();
    }
  }, 180_000);

  it('a download whose SHA-256 is not the shipped one leaves the old executable, claiming again', async () => {
    // The newer build, served under a manifest whose SHA-256 is not its bytes'.
    const bad = await mkdtemp(path.join(os.tmpdir(), 'rota-bad-release-'));
    dirs.push(bad);
    await copyFile(path.join(newer, FILE), path.join(bad, FILE));
    const manifest = JSON.parse(readFileSync(path.join(newer, 'manifest.json'), 'utf8')) as {
      files: Record<string, { sha256: string }>;
    };
    manifest.files['linux-x64']!.sha256 = 'f'.repeat(64);
    await writeFile(path.join(bad, 'manifest.json'), JSON.stringify(manifest));

    const { server, folder, agent, flag, robot } = await setUp('Bad update', bad);
    try {
      await writeFile(flag, '');
      const asked = await server.admin.post('/api/rota/node/api/v1/update', { all: true });
      expect(asked.body.data).toEqual({ requested: 1 });
      await until(
        'the agent to reject the download',
        async () => agent.output().includes(`update to ${newerVersion} failed`),
        90_000,
      );
      expect(agent.output()).toContain('claiming again');
      expect(await readdir(folder)).toEqual(['rota-agent']);
      expect(sha256(path.join(folder, 'rota-agent'))).toBe(sha256(path.join(older, FILE)));
      const id = await runNow(server.admin, { id: robot });
      expect(await endOf(server, id)).toMatchObject({ status: 'success' });
      expect(agent.exits).toEqual([]);
      expect(await show(server)).toMatchObject({ version: olderVersion });
    } finally {
      await agent.stop();
      await server.close();
    }
  }, 180_000);
});
