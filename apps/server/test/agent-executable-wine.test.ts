import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionOf, runNow } from './helpers/engine.js';
import {
  createPackagedRobot,
  RELEASE,
  releaseManifest,
  startExecutable,
  startAgentServer,
  type AgentServer,
  type RunningExecutable,
} from './helpers/packaged-agent.js';
import { until } from './helpers/real-agent.js';

/**
 * The packaged Windows agent under Debian's wine64: it connects, runs a `cmd /c exit 3` robot
 * and reports exit code 3. Skipped where wine64 is not installed, and where it is installed but
 * cannot start Node 24 at all (Debian 12's wine 8 refuses the address-space placeholders V8
 * reserves; see docs/decisions/0216): the probe below says which, in the skip's reason.
 */
const EXECUTABLE = path.join(RELEASE, 'rota-agent-win-x64.exe');
const WINE = ['/usr/lib/wine/wine64', '/usr/bin/wine64'].find((file) => existsSync(file));
// One prefix for every run: wine's first start in a new prefix takes a while.
const WINEPREFIX = path.join(os.tmpdir(), 'rota-wine-prefix');
const WINE_ENV = { WINEPREFIX, WINEDEBUG: '-all', PATH: '/usr/bin:/bin', HOME: os.tmpdir() };

/** Why the Windows agent cannot run here, or undefined when it can. */
function unavailable(): string | undefined {
  if (!existsSync(EXECUTABLE)) return `${EXECUTABLE} is missing (npm run package:agent)`;
  if (WINE === undefined) return 'wine64 is not installed';
  const wine = (args: string[]) =>
    spawnSync(WINE, args, { env: WINE_ENV, encoding: 'utf8', timeout: 120_000 });
  // A probe takes wine's start (some 20 s): its verdict is kept for this wine and this Node.
  const wineVersion = wine(['--version']).stdout.trim();
  const verdict = path.join(
    WINEPREFIX,
    `rota-probe-${wineVersion}-node-${releaseManifest()?.node ?? 'unknown'}.txt`.replace(
      /[^\w.-]/g,
      '_',
    ),
  );
  if (existsSync(verdict)) return readFileSync(verdict, 'utf8') || undefined;
  // Node 24 starts only on what says it is Windows 10 or later; wine's prefix says 7 by default.
  wine(['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f']);
  const probe = wine([EXECUTABLE, '--version']);
  const said = `${probe.stdout}${probe.stderr}`;
  let why: string | undefined;
  if (probe.status !== 0 || !/^\d+\.\d+/.test(probe.stdout.trim())) {
    const fatal = /Fatal process out of memory: [^\n]*/.exec(said)?.[0];
    why = `${wineVersion} cannot start the Windows agent (exit ${probe.status}${fatal ? `: ${fatal}` : ''})`;
  }
  writeFileSync(verdict, why ?? '');
  return why;
}

const reason = unavailable();
if (reason !== undefined) console.warn(`agent-executable-wine.test.ts skipped: ${reason}`);

describe.skipIf(reason !== undefined)('the packaged Windows agent under wine64', () => {
  let server: AgentServer;
  let folder: string;
  let agent: RunningExecutable;

  beforeAll(async () => {
    server = await startAgentServer('Wine');
    folder = await mkdtemp(path.join(os.tmpdir(), 'rota-wine-agent-'));
    await copyFile(EXECUTABLE, path.join(folder, 'rota-agent-win-x64.exe'));
    await mkdir(path.join(folder, 'work'));
    await writeFile(path.join(folder, 'token'), server.token);
    // Wine maps the Unix root to drive Z:.
    const windows = (file: string) => `Z:${path.join(folder, file).replaceAll('/', '\\')}`;
    agent = startExecutable(
      WINE as string,
      [
        path.join(folder, 'rota-agent-win-x64.exe'),
        '--server',
        server.base,
        '--token-file',
        windows('token'),
        '--work-dir',
        windows('work'),
      ],
      { cwd: folder, env: WINE_ENV },
    );
  });

  afterAll(async () => {
    agent?.process.kill('SIGKILL');
    await server?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('connects, runs a cmd /c robot and reports its exit code', async () => {
    await until(
      'the agent under wine to connect',
      async () => agent.output().includes('connected to'),
      120_000,
    );
    const robot = await createPackagedRobot(server, 'Wine cmd robot', 'cmd /c exit 3', [
      { name: 'readme.txt', data: 'a robot with nothing but its command\r\n' },
    ]);
    const id = await runNow(server.admin, { id: robot });
    const final = await until(
      `execution ${id} to end`,
      async () => {
        const e = await executionOf(server.admin, id);
        return ['queued', 'processing'].includes(e.status) ? undefined : e;
      },
      120_000,
    );
    expect(final.exit_code).toBe(3);
  }, 300_000);
});
