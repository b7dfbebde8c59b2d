import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describePlan } from '../src/service/plan.js';
import { parseInstall } from '../src/service/settings.js';
import { logonTaskXml, windowsInstallPlan } from '../src/service/windows.js';
import { tempDir } from './helpers/archives.js';
import { runCli } from './helpers/cli.js';

/**
 * `install --attended --user ACCESS`: the agent for one person, in their desktop session — a
 * systemd user unit of their graphical session on Linux, the logon task on Windows — taking only
 * the runs that Rota user starts.
 */
const TOKEN = 'rota_agent_attended-secret';
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';

let dir: string;
let tokenFile: string;
let executable: string;
beforeEach(async () => {
  dir = await tempDir();
  tokenFile = path.join(dir, 'token.txt');
  await writeFile(tokenFile, `${TOKEN}\n`);
  executable = path.join(dir, 'rota-agent-linux-x64');
  await writeFile(executable, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const install = (extra: string[]) => [
  'install',
  '--server',
  'https://rota.example.com',
  '--token-file',
  tokenFile,
  '--exec',
  executable,
  ...extra,
];

describe('install --attended on Linux', () => {
  it('writes a user unit, the token and the executable under the person’s home, nothing as root', async () => {
    const root = path.join(dir, 'root');
    const done = await runCli(install(['--attended', '--user', 'ana', '--root', root]), {
      HOME: '/home/ana',
    });
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    const unit = await readFile(
      path.join(root, 'home/ana/.config/systemd/user/rota-agent.service'),
      'utf8',
    );
    expect(unit).toContain(
      'ExecStart=/home/ana/.local/share/rota-agent/bin/rota-agent --server https://rota.example.com --token-file /home/ana/.config/rota-agent/token --work-dir /home/ana/.local/share/rota-agent/work --mode desktop --attended --user ana',
    );
    expect(unit).toContain('WantedBy=graphical-session.target');
    expect(unit).not.toContain('User=');
    expect(unit).not.toContain(TOKEN);
    const token = path.join(root, 'home/ana/.config/rota-agent/token');
    expect(await readFile(token, 'utf8')).toBe(TOKEN);
    expect((await stat(token)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(token))).mode & 0o777).toBe(0o700);
    expect(done.stdout).toContain(
      'not run (--root): systemctl --user enable --now rota-agent.service',
    );
    expect(done.stdout).not.toContain(TOKEN);
  });

  it('is refused without --user, with --desktop, or without a HOME', async () => {
    const noUser = await runCli(install(['--attended', '--print']), { HOME: '/home/ana' });
    expect(noUser.code).toBe(2);
    expect(noUser.stderr).toContain('--attended needs --user <access>');
    const both = await runCli(install(['--attended', '--user', 'ana', '--desktop', '--print']), {
      HOME: '/home/ana',
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('leave out --desktop');
    const homeless = await runCli(install(['--attended', '--user', 'ana', '--print']), {
      HOME: '',
    });
    expect(homeless.code).toBe(2);
    expect(homeless.stderr).toContain('their HOME holds the user unit');
  });

  it('uninstall --attended removes the person’s unit, token and executable', async () => {
    const root = path.join(dir, 'root');
    const env = { HOME: '/home/ana' };
    expect((await runCli(install(['--attended', '--user', 'ana', '--root', root]), env)).code).toBe(
      0,
    );
    const removed = await runCli(['uninstall', '--attended', '--root', root], env);
    expect(removed.stderr).toBe('');
    expect(removed.code).toBe(0);
    expect(existsSync(path.join(root, 'home/ana/.config/systemd/user/rota-agent.service'))).toBe(
      false,
    );
    expect(existsSync(path.join(root, 'home/ana/.config/rota-agent/token'))).toBe(false);
    expect(removed.stdout).toContain('systemctl --user disable --now rota-agent.service');
  });

  it.skipIf(!existsSync(SYSTEMD_ANALYZE))(
    'systemd-analyze verify passes on the user unit',
    async () => {
      const root = path.join(dir, 'root');
      const home = path.join(dir, 'home');
      expect(
        (await runCli(install(['--attended', '--user', 'ana', '--root', root]), { HOME: home }))
          .code,
      ).toBe(0);
      // verify insists that ExecStart's program exists: the copy under the root is that program.
      const unitText = await readFile(
        path.join(root, home, '.config/systemd/user/rota-agent.service'),
        'utf8',
      );
      const unit = path.join(dir, 'rota-agent.service');
      await writeFile(unit, unitText.replace(`ExecStart=${home}`, `ExecStart=${root}${home}`));
      const verify = spawnSync(SYSTEMD_ANALYZE, ['verify', '--man=no', unit], { encoding: 'utf8' });
      expect(verify.stderr).toBe('');
      expect(verify.status).toBe(0);
    },
  );
});

describe('install --attended on Windows', () => {
  const settings = () => {
    const parsed = parseInstall(
      [
        '--server',
        'https://rota.example.com',
        '--token-file',
        tokenFile,
        '--exec',
        'C:\\Users\\ana\\rota-agent-win-x64.exe',
        '--platform',
        'win32',
        '--attended',
        '--user',
        'ana.silva',
      ],
      { env: { USERDOMAIN: 'ACME', USERNAME: 'ana' } },
    );
    if (parsed.kind !== 'ok') throw new Error(JSON.stringify(parsed));
    return parsed.settings;
  };

  it('is the logon task of the person installing it, the agent told whom it serves', () => {
    const s = settings();
    expect(s).toMatchObject({ desktop: true, user: 'ACME\\ana', attendedUser: 'ana.silva' });
    const task = logonTaskXml(s);
    expect(task).toContain('<UserId>ACME\\ana</UserId>');
    expect(task).toContain('--mode desktop --attended --user ana.silva</Arguments>');
    const plan = windowsInstallPlan(s);
    const text = describePlan(plan);
    expect(text).toContain('ACME\\ana:(OI)(CI)R');
    expect(text).not.toContain(TOKEN);
  });
});
