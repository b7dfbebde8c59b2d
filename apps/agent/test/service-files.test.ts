import { describe, expect, it } from 'vitest';
import { describePlan } from '../src/service/plan.js';
import type { InstallSettings } from '../src/service/settings.js';
import { linuxInstallPlan, linuxUninstallPlan, systemdUnit } from '../src/service/systemd.js';
import {
  logonTaskXml,
  windowsInstallPlan,
  windowsUninstallPlan,
  winswXml,
} from '../src/service/windows.js';

const TOKEN = 'rota_agent_4f1e-very-secret';

const linux: InstallSettings = {
  platform: 'linux',
  servers: ['https://rota.example.com', 'https://rota-2.example.com'],
  tokenFile: '/root/agent-token',
  token: TOKEN,
  name: 'rota-agent',
  desktop: false,
  executable: '/tmp/rota-agent-linux-x64',
  print: true,
};
const windows: InstallSettings = {
  ...linux,
  platform: 'win32',
  servers: ['https://rota.example.com'],
  tokenFile: 'C:\\Users\\ana\\token.txt',
  executable: 'C:\\Users\\ana\\Downloads\\rota-agent-win-x64.exe',
};

const lines = (text: string) => text.split(/\r?\n/);

/** Every command line a plan would run, as one text. */
const commandLines = (plan: ReturnType<typeof linuxInstallPlan>) =>
  [...plan.before, ...plan.files.flatMap((file) => file.then ?? []), ...plan.after]
    .map((step) => step.argv.join(' '))
    .join('\n');

describe('what install says of the token file it was given', () => {
  it('may be deleted when it is a copy; not when it is where the service keeps the token', () => {
    expect(linuxInstallPlan(linux).notes.join('\n')).toContain('/root/agent-token may be deleted');
    // The console's commands write the token straight where the service keeps it.
    const inPlace = linuxInstallPlan({ ...linux, tokenFile: '/etc/rota-agent/token' });
    expect(inPlace.notes.join('\n')).toContain('the token is kept in /etc/rota-agent/token');
    expect(inPlace.notes.join('\n')).not.toContain('may be deleted');
  });
});

describe('where the executable lives (so that it can update itself)', () => {
  it('on Linux, in a folder the service user owns, root keeping the unit and the token', () => {
    const plan = linuxInstallPlan(linux);
    expect(plan.before.map((step) => step.argv)).toContainEqual([
      'install',
      '-d',
      '-o',
      'rota-agent',
      '-g',
      'rota-agent',
      '-m',
      '0755',
      '/opt/rota-agent/bin',
    ]);
    expect(plan.files.find((file) => file.action === 'copy')?.path).toBe(
      '/opt/rota-agent/bin/rota-agent',
    );
    const removed = linuxUninstallPlan({
      platform: 'linux',
      name: 'rota-agent',
      desktop: false,
      print: true,
    }).files.map((f) => f.path);
    expect(removed).toEqual(
      expect.arrayContaining([
        '/opt/rota-agent/bin/rota-agent',
        '/opt/rota-agent/bin/rota-agent.previous',
        '/opt/rota-agent/bin/update.json',
      ]),
    );
  });

  it('on Windows, uninstall removes what an update leaves beside the executable', () => {
    const removed = windowsUninstallPlan({
      platform: 'win32',
      name: 'rota-agent',
      desktop: false,
      print: true,
    }).files.map((f) => f.path);
    expect(removed).toEqual(
      expect.arrayContaining([
        'C:\\Program Files\\Rota Agent\\rota-agent\\rota-agent.exe.previous',
        'C:\\Program Files\\Rota Agent\\rota-agent\\rota-agent.exe.failed',
        'C:\\Program Files\\Rota Agent\\rota-agent\\update.json',
      ]),
    );
  });
});

describe('the systemd unit', () => {
  it('runs as its own user, restarts always, and takes the token as a credential', () => {
    const unit = lines(systemdUnit(linux));
    expect(unit).toEqual(
      expect.arrayContaining([
        '[Service]',
        'User=rota-agent',
        'Group=rota-agent',
        'ExecStart=/opt/rota-agent/bin/rota-agent --server https://rota.example.com,https://rota-2.example.com --work-dir /var/lib/rota-agent --mode service',
        'LoadCredential=token:/etc/rota-agent/token',
        'StateDirectory=rota-agent',
        'WorkingDirectory=/var/lib/rota-agent',
        'Restart=always',
        'KillMode=mixed',
        'TimeoutStopSec=90',
        'NoNewPrivileges=yes',
        'ProtectSystem=full',
        'After=network-online.target',
        'WantedBy=multi-user.target',
      ]),
    );
  });

  it('escapes what systemd would expand and quotes a work folder with spaces on the command line', () => {
    const unit = systemdUnit({
      ...linux,
      name: 'agent-2',
      servers: ['https://rota.example.com/a%20b'],
      workDir: '/srv/robot work',
    });
    expect(lines(unit)).toEqual(
      expect.arrayContaining([
        'ExecStart=/opt/agent-2/bin/rota-agent --server https://rota.example.com/a%%20b --work-dir "/srv/robot work" --mode service',
        'LoadCredential=token:/etc/agent-2/token',
        'WorkingDirectory=/srv/robot work',
      ]),
    );
    // Its own folder: no StateDirectory, which would make /var/lib/agent-2 besides.
    expect(unit).not.toContain('StateDirectory');
  });

  it('the plan keeps the token root-only and out of every file shown and every command', () => {
    const plan = linuxInstallPlan(linux);
    const token = plan.files.find((file) => file.path === '/etc/rota-agent/token');
    expect(token).toMatchObject({ action: 'write', mode: 0o600, secret: true, content: TOKEN });
    for (const file of plan.files.filter((f) => !f.secret)) {
      expect(String(file.content ?? '')).not.toContain(TOKEN);
    }
    expect(commandLines(plan)).not.toContain(TOKEN);
    const printed = describePlan(plan);
    expect(printed).not.toContain(TOKEN);
    expect(printed).toContain(
      '# would write /etc/rota-agent/token (mode 0600): the token (not shown)',
    );
    expect(printed).toContain('systemctl enable --now rota-agent.service');
    expect(plan.before[0]).toMatchObject({
      argv: expect.arrayContaining(['useradd', '--system', 'rota-agent']),
      unless: ['id', '-u', 'rota-agent'],
    });
  });
});

describe('the Windows service (WinSW)', () => {
  it('starts the executable at boot with the token file, restarting on failure', () => {
    const xml = lines(winswXml({ ...windows, workDir: 'D:\\Robot "work"' }));
    expect(xml).toEqual(
      expect.arrayContaining([
        '<service>',
        '  <id>rota-agent</id>',
        '  <executable>C:\\Program Files\\Rota Agent\\rota-agent\\rota-agent.exe</executable>',
        '  <arguments>--server https://rota.example.com --token-file &quot;C:\\ProgramData\\Rota Agent\\rota-agent\\credentials\\token&quot; --work-dir &quot;D:\\Robot \\&quot;work\\&quot;&quot; --mode service</arguments>',
        '  <startmode>Automatic</startmode>',
        '  <onfailure action="restart" delay="10 sec"/>',
        '  <stoptimeout>90 sec</stoptimeout>',
        '</service>',
      ]),
    );
  });

  it('closes the token folder to SYSTEM and Administrators before the token is written', () => {
    const plan = windowsInstallPlan(windows);
    const folder = 'C:\\ProgramData\\Rota Agent\\rota-agent\\credentials';
    const at = plan.files.findIndex((file) => file.path === folder);
    expect(plan.files[at]).toMatchObject({ action: 'folder' });
    expect(plan.files[at]?.then?.map((step) => step.argv)).toEqual([
      [
        'icacls',
        folder,
        '/inheritance:r',
        '/grant:r',
        '*S-1-5-18:(OI)(CI)F',
        '*S-1-5-32-544:(OI)(CI)F',
      ],
    ]);
    expect(plan.files[at + 1]).toMatchObject({ path: `${folder}\\token`, secret: true });
  });

  it('runs WinSW only when it was placed', () => {
    const plan = windowsInstallPlan(windows);
    expect(plan.after[0]).toMatchObject({
      argv: ['C:\\Program Files\\Rota Agent\\rota-agent\\rota-agent-service.exe', 'install'],
      ifExists: 'C:\\Program Files\\Rota Agent\\rota-agent\\rota-agent-service.exe',
    });
    expect(plan.files.map((f) => f.path)).toContain(
      'C:\\Program Files\\Rota Agent\\rota-agent\\rota-agent-service.xml',
    );
    expect(plan.notes.join('\n')).toContain('WinSW');
    expect(describePlan(plan)).not.toContain(TOKEN);
    expect(commandLines(plan)).not.toContain(TOKEN);
  });

  it('with --winsw copies WinSW next to its definition and registers the service', () => {
    const plan = windowsInstallPlan({ ...windows, winsw: 'C:\\Users\\ana\\WinSW-x64.exe' });
    const winsw = 'C:\\Program Files\\Rota Agent\\rota-agent\\rota-agent-service.exe';
    expect(plan.files).toContainEqual({
      path: winsw,
      action: 'copy',
      from: 'C:\\Users\\ana\\WinSW-x64.exe',
    });
    expect(plan.after).toEqual([
      expect.objectContaining({ argv: [winsw, 'install'], ifExists: undefined }),
      expect.objectContaining({ argv: [winsw, 'start'], ifExists: undefined }),
    ]);
    expect(plan.notes.join('\n')).not.toContain('give it with --winsw');
  });
});

describe('the logon task (--desktop)', () => {
  const desktop = { ...windows, desktop: true, user: 'ACME\\ana' };

  it("starts at the user's logon in their interactive session, never stopped for time", () => {
    const xml = lines(logonTaskXml(desktop));
    expect(xml[0]).toBe('<?xml version="1.0" encoding="UTF-16"?>');
    expect(xml).toEqual(
      expect.arrayContaining([
        '    <LogonTrigger>',
        '      <UserId>ACME\\ana</UserId>',
        '      <LogonType>InteractiveToken</LogonType>',
        '      <RunLevel>LeastPrivilege</RunLevel>',
        '    <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>',
        '    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>',
        '      <Command>C:\\Program Files\\Rota Agent\\rota-agent\\rota-agent.exe</Command>',
        '      <Arguments>--server https://rota.example.com --token-file &quot;C:\\ProgramData\\Rota Agent\\rota-agent\\credentials\\token&quot; --work-dir &quot;C:\\ProgramData\\Rota Agent\\rota-agent\\work&quot; --mode desktop</Arguments>',
      ]),
    );
  });

  it('registers with schtasks from the XML (UTF-16), the user allowed to read the token', () => {
    const plan = windowsInstallPlan(desktop);
    const task = plan.files.find((file) => file.path.endsWith('rota-agent-logon-task.xml'));
    expect(task).toMatchObject({ action: 'write', utf16: true });
    const folder = plan.files.find((file) => file.action === 'folder');
    expect(folder?.then?.[0]?.argv).toEqual([
      'icacls',
      'C:\\ProgramData\\Rota Agent\\rota-agent\\credentials',
      '/inheritance:r',
      '/grant:r',
      '*S-1-5-18:(OI)(CI)F',
      '*S-1-5-32-544:(OI)(CI)F',
      'ACME\\ana:(OI)(CI)R',
    ]);
    expect(plan.after.map((step) => step.argv)).toEqual([
      // The user's session runs the agent: it may replace its own executable (updates).
      ['icacls', 'C:\\Program Files\\Rota Agent\\rota-agent', '/grant', 'ACME\\ana:(OI)(CI)M'],
      [
        'schtasks',
        '/Create',
        '/TN',
        'Rota\\rota-agent',
        '/XML',
        'C:\\Program Files\\Rota Agent\\rota-agent\\rota-agent-logon-task.xml',
        '/F',
      ],
      ['schtasks', '/Run', '/TN', 'Rota\\rota-agent'],
    ]);
    // No service definition in desktop mode: the two would run the agent twice.
    expect(plan.files.some((file) => file.path.endsWith('-service.xml'))).toBe(false);
    expect(describePlan(plan)).not.toContain(TOKEN);
    expect(commandLines(plan)).not.toContain(TOKEN);
  });
});
