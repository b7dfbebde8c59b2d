import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { machineIo, runServiceCommand, type ServiceIo } from '../src/service/cli.js';
import { tempDir } from './helpers/archives.js';
import { runCli } from './helpers/cli.js';

const TOKEN = 'rota_agent_cli-test-secret';
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

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

describe('rota-agent install --print', () => {
  it('writes nothing and prints each file with its path; the token is never shown', async () => {
    const before = await filesUnder(dir);
    const args = ['install', '--server', 'https://rota.example.com', '--token-file', tokenFile];
    const { code, stdout, stderr } = await runCli([...args, '--exec', executable, '--print']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(
      '# would write /etc/systemd/system/rota-agent.service (mode 0644):\n[Unit]',
    );
    expect(stdout).toContain('LoadCredential=token:/etc/rota-agent/token');
    expect(stdout).toContain(
      `# would copy ${executable} to /opt/rota-agent/bin/rota-agent (mode 0755)`,
    );
    expect(stdout).toContain(
      '# would write /etc/rota-agent/token (mode 0600): the token (not shown)',
    );
    expect(stdout).toContain('systemctl enable --now rota-agent.service');
    expect(stdout).not.toContain(TOKEN);
    expect(await filesUnder(dir)).toEqual(before);
  });

  it("prints Windows' service definition and logon task when asked for that platform", async () => {
    const base = ['install', '--server', 'https://rota.example.com', '--token-file', tokenFile];
    const windowsArgs = [...base, '--exec', 'C:\\rota-agent.exe', '--platform', 'win32', '--print'];
    const service = await runCli(windowsArgs);
    expect(service.code).toBe(0);
    expect(service.stdout).toContain(
      '# would write C:\\Program Files\\Rota Agent\\rota-agent\\rota-agent-service.xml:\n<service>',
    );
    // The token's folder is closed before the token is written into it.
    const order = [
      '# would make the folder C:\\ProgramData\\Rota Agent\\rota-agent\\credentials',
      'icacls "C:\\ProgramData\\Rota Agent\\rota-agent\\credentials" /inheritance:r',
      '# would write C:\\ProgramData\\Rota Agent\\rota-agent\\credentials\\token: the token (not shown)',
    ].map((line) => service.stdout.indexOf(line));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const desktop = await runCli([...windowsArgs, '--desktop', '--user', 'ACME\\ana']);
    expect(desktop.code).toBe(0);
    expect(desktop.stdout).toContain('<LogonType>InteractiveToken</LogonType>');
    expect(desktop.stdout).toContain('schtasks /Create /TN Rota\\rota-agent /XML');
    for (const out of [service, desktop]) expect(out.stdout).not.toContain(TOKEN);
  });

  it('lists every bad option at once and exits 2', async () => {
    const { code, stderr } = await runCli([
      'install',
      '--server',
      'ftp://x',
      '--desktop',
      '--bogus',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown option --bogus');
    expect(stderr).toContain('--server must be an http(s) URL such as https://rota.example.com');
    expect(stderr).toContain('--token-file is required');
  });
});

describe('rota-agent install --root', () => {
  it('writes the unit, the executable and a root-only token under the root, and runs nothing', async () => {
    const root = path.join(dir, 'root');
    const { code, stdout } = await runCli([
      'install',
      '--server',
      'https://rota.example.com',
      '--token-file',
      tokenFile,
      '--exec',
      executable,
      '--root',
      root,
    ]);
    expect(code).toBe(0);
    expect(await filesUnder(root)).toEqual([
      'etc/rota-agent/token',
      'etc/systemd/system/rota-agent.service',
      'opt/rota-agent/bin/rota-agent',
    ]);
    expect(stdout).toContain('not run (--root): systemctl enable --now rota-agent.service');
    const token = path.join(root, 'etc/rota-agent/token');
    expect(await readFile(token, 'utf8')).toBe(TOKEN);
    expect((await stat(token)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(token))).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(root, 'opt/rota-agent/bin/rota-agent'))).mode & 0o777).toBe(0o755);
    const unit = await readFile(path.join(root, 'etc/systemd/system/rota-agent.service'), 'utf8');
    expect(unit).not.toContain(TOKEN);

    const removed = await runCli(['uninstall', '--root', root]);
    expect(removed.code).toBe(0);
    expect(await filesUnder(root)).toEqual([]);
  });

  it('writes the logon task as UTF-16 with its byte order mark', async () => {
    const root = path.join(dir, 'root');
    const { code } = await runCli([
      'install',
      '--server',
      'https://rota.example.com',
      '--token-file',
      tokenFile,
      '--exec',
      executable,
      '--platform',
      'win32',
      '--desktop',
      '--user',
      'ACME\\ana',
      '--root',
      root,
    ]);
    expect(code).toBe(0);
    const task = await readFile(
      path.join(root, 'C/Program Files/Rota Agent/rota-agent/rota-agent-logon-task.xml'),
    );
    expect([...task.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(task.subarray(2).toString('utf16le')).toMatch(
      /^<\?xml version="1.0" encoding="UTF-16"\?>/,
    );
  });
});

describe('systemd-analyze verify', () => {
  it.skipIf(!existsSync(SYSTEMD_ANALYZE))(
    'passes on the generated unit, without a warning',
    async () => {
      const root = path.join(dir, 'root');
      const installed = await runCli([
        'install',
        '--server',
        'https://rota.example.com,https://rota-2.example.com',
        '--token-file',
        tokenFile,
        '--exec',
        executable,
        '--work-dir',
        path.join(dir, 'robot work'),
        '--root',
        root,
      ]);
      expect(installed.code).toBe(0);
      // verify insists that ExecStart's program exists: the copy under the root is that program.
      const unitText = await readFile(
        path.join(root, 'etc/systemd/system/rota-agent.service'),
        'utf8',
      );
      const unit = path.join(dir, 'rota-agent.service');
      await writeFile(
        unit,
        unitText.replace(
          'ExecStart=/opt/rota-agent/bin/rota-agent',
          `ExecStart=${root}/opt/rota-agent/bin/rota-agent`,
        ),
      );
      const verify = (file: string) =>
        spawnSync(SYSTEMD_ANALYZE, ['verify', '--man=no', file], { encoding: 'utf8' });
      const passed = verify(unit);
      expect(passed.stderr).toBe('');
      expect(passed.status).toBe(0);

      // And verify does see a mistake in such a unit: it names the line.
      const broken = path.join(dir, 'broken.service');
      await writeFile(
        broken,
        (await readFile(unit, 'utf8')).replace('KillMode=mixed', 'KilMode=mixed'),
      );
      expect(verify(broken).stderr).toContain("Unknown key 'KilMode'");
    },
  );
});

describe('install on a machine without systemd', () => {
  /** The machine's own io, but the output kept and nothing run. */
  function io(systemd: boolean): ServiceIo & { said: string[]; ran: string[][] } {
    const said: string[] = [];
    const ran: string[][] = [];
    return {
      ...machineIo(),
      out: (text) => said.push(text),
      err: (text) => said.push(text),
      run: (argv) => {
        ran.push([...argv]);
        return { status: 0, output: '' };
      },
      systemdRunning: () => systemd,
      said,
      ran,
    };
  }

  it('says so and exits 1, writing and running nothing', async () => {
    const machine = io(false);
    const args = ['--server', 'https://rota.example.com', '--token-file', tokenFile];
    const code = await runServiceCommand('install', [...args, '--exec', executable], machine);
    expect(code).toBe(1);
    expect(machine.said.join('')).toContain(
      'systemd is not running on this machine (it is not PID 1)',
    );
    expect(machine.ran).toEqual([]);
    expect(await runServiceCommand('status', [], machine)).toBe(1);
  });
});
