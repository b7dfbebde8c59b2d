import path from 'node:path';
import type { Plan } from './plan.js';
import type { InstallSettings, UninstallSettings } from './settings.js';

/** The system user every Linux agent service runs as (created by `install` when missing). */
export const SERVICE_USER = 'rota-agent';

/**
 * Where the Linux service keeps its executable, its token and (by default) its work. The
 * executable's folder belongs to the service user, so the agent can put a new build in place of
 * its own executable (an update); the unit and the token stay root's.
 */
export function linuxPaths(name: string) {
  return {
    unit: `/etc/systemd/system/${name}.service`,
    programDir: `/opt/${name}/bin`,
    executable: `/opt/${name}/bin/rota-agent`,
    token: `/etc/${name}/token`,
    workDir: `/var/lib/${name}`,
  };
}

/**
 * One word of ExecStart: quoted when it holds spaces or quotes, with systemd's own `%` and `$`
 * escaped so a URL or a path is taken as written.
 */
function unitWord(word: string): string {
  const escaped = word.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  return /^[\w@%+=:,./-]+$/.test(escaped) ? escaped : `"${escaped.replace(/(["\\])/g, '\\$1')}"`;
}

/**
 * The unit. The token reaches the agent as a systemd credential: root's 0600 file, copied by
 * systemd into a directory only the service sees ($CREDENTIALS_DIRECTORY, where the agent looks
 * when no token is given), so it is on no command line and the service user cannot read the
 * original. KillMode=mixed sends SIGTERM to the agent alone, whose
 * grace lets running robots finish; whatever is left is killed when the stop times out.
 */
export function systemdUnit(settings: InstallSettings): string {
  const paths = linuxPaths(settings.name);
  const workDir = settings.workDir ?? paths.workDir;
  const exec = [
    paths.executable,
    '--server',
    settings.servers.join(','),
    '--work-dir',
    workDir,
    '--mode',
    'service',
  ];
  const lines = [
    '[Unit]',
    `Description=Rota agent (${settings.name}): runs Rota robots on this machine`,
    'Wants=network-online.target',
    'After=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `User=${SERVICE_USER}`,
    `Group=${SERVICE_USER}`,
    `ExecStart=${exec.map(unitWord).join(' ')}`,
    // The agent reads $CREDENTIALS_DIRECTORY/token by itself (LoadCredential: systemd 247 on).
    `LoadCredential=token:${paths.token}`,
    ...(settings.workDir === undefined ? [`StateDirectory=${settings.name}`] : []),
    // A path setting, not a command line: taken whole, spaces and all; only specifiers expand.
    `WorkingDirectory=${workDir.replace(/%/g, '%%')}`,
    // Also after exit 75: the agent replaced its executable (an update, a roll-back) and stopped
    // so that the new one is started.
    'Restart=always',
    'RestartSec=5',
    'KillMode=mixed',
    // The agent's own grace for running robots is 60 s; the stop waits a little longer.
    'TimeoutStopSec=90',
    'UMask=0027',
    // Hardening that leaves robots their browsers, interpreters and network: no privileges
    // gained through setuid (sudo), /usr, /boot and /etc read-only, the kernel left alone.
    'NoNewPrivileges=yes',
    'ProtectSystem=full',
    'ProtectKernelTunables=yes',
    'ProtectKernelModules=yes',
    'ProtectControlGroups=yes',
    'RestrictSUIDSGID=yes',
    'LockPersonality=yes',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ];
  return lines.join('\n');
}

export function linuxInstallPlan(settings: InstallSettings): Plan {
  const paths = linuxPaths(settings.name);
  const unit = `${settings.name}.service`;
  const before: Plan['before'] = [
    {
      argv: [
        'useradd',
        '--system',
        '--user-group',
        '--home-dir',
        '/var/lib/rota-agent',
        '--no-create-home',
        '--shell',
        '/usr/sbin/nologin',
        SERVICE_USER,
      ],
      why: `the service's own system user, ${SERVICE_USER}`,
      unless: ['id', '-u', SERVICE_USER],
    },
  ];
  before.push({
    argv: ['install', '-d', '-o', SERVICE_USER, '-g', SERVICE_USER, '-m', '0755', paths.programDir],
    why: "the executable's folder, the service user its owner (the agent updates itself there)",
  });
  if (settings.workDir !== undefined) {
    before.push({
      argv: [
        'install',
        '-d',
        '-o',
        SERVICE_USER,
        '-g',
        SERVICE_USER,
        '-m',
        '0750',
        settings.workDir,
      ],
      why: 'the work folder, the service user its owner',
    });
  }
  return {
    platform: 'linux',
    before,
    files: [
      { path: paths.executable, action: 'copy', from: settings.executable, mode: 0o755 },
      { path: path.posix.dirname(paths.token), action: 'folder', mode: 0o700 },
      {
        path: paths.token,
        action: 'write',
        content: settings.token,
        mode: 0o600,
        secret: true,
      },
      { path: paths.unit, action: 'write', content: systemdUnit(settings), mode: 0o644 },
    ],
    after: [
      { argv: ['systemctl', 'daemon-reload'], why: 'systemd reads the new unit' },
      { argv: ['systemctl', 'enable', '--now', unit], why: 'started now and at every boot' },
    ],
    notes: [
      // The console's commands write the token where the service keeps it: then there is no
      // other copy to delete, and saying so would have an operator delete the service's own.
      path.posix.resolve(settings.tokenFile) === path.posix.resolve(paths.token)
        ? `the token is kept in ${paths.token} (root only)`
        : `the token is kept in ${paths.token} (root only); ${settings.tokenFile} may be deleted`,
      `logs: journalctl -u ${unit}; state: rota-agent status${settings.name === 'rota-agent' ? '' : ` --name ${settings.name}`}`,
    ],
  };
}

/** What uninstall removes: the unit, the token, the executable and what an update left beside it. */
function installedFiles(paths: {
  unit: string;
  token: string;
  executable: string;
  programDir: string;
}): Plan['files'] {
  return [
    { path: paths.unit, action: 'remove' },
    { path: paths.token, action: 'remove' },
    { path: paths.executable, action: 'remove' },
    // What an update leaves beside it: the build it replaced, its marker.
    { path: `${paths.executable}.previous`, action: 'remove' },
    { path: `${paths.programDir}/update.json`, action: 'remove' },
    { path: `${paths.programDir}/update-rejected.json`, action: 'remove' },
  ];
}

export function linuxUninstallPlan(settings: UninstallSettings): Plan {
  const paths = linuxPaths(settings.name);
  const unit = `${settings.name}.service`;
  return {
    platform: 'linux',
    before: [
      {
        argv: ['systemctl', 'disable', '--now', unit],
        why: 'stopped (its robots get their grace) and not started at boot',
        mayFail: true,
      },
    ],
    files: installedFiles(paths),
    after: [{ argv: ['systemctl', 'daemon-reload'], why: 'systemd forgets the unit' }],
    notes: [
      `kept: the work folder (${paths.workDir} by default) and the user ${SERVICE_USER}; remove them with rm -r and userdel when no other agent uses them`,
    ],
  };
}

/**
 * An attended agent's files, all the installing person's own: a systemd user unit, the token
 * (their 0600 file) and the executable under their home.
 */
export function attendedPaths(name: string, home: string) {
  const data = path.posix.join(home, '.local/share', name);
  return {
    unit: path.posix.join(home, '.config/systemd/user', `${name}.service`),
    programDir: path.posix.join(data, 'bin'),
    executable: path.posix.join(data, 'bin/rota-agent'),
    tokenDir: path.posix.join(home, '.config', name),
    token: path.posix.join(home, '.config', name, 'token'),
    workDir: path.posix.join(data, 'work'),
  };
}

/**
 * The attended agent's user unit: started with the person's graphical session (so robots get
 * its display) and stopped with it. A user unit gets no systemd credentials to hand on, so the
 * token is the person's own 0600 file, named on the command line.
 */
export function attendedUserUnit(settings: InstallSettings): string {
  const paths = attendedPaths(settings.name, settings.home as string);
  const exec = [
    paths.executable,
    '--server',
    settings.servers.join(','),
    '--token-file',
    paths.token,
    '--work-dir',
    settings.workDir ?? paths.workDir,
    '--mode',
    'desktop',
    '--attended',
    '--user',
    settings.attendedUser as string,
  ];
  return [
    '[Unit]',
    `Description=Rota agent (${settings.name}) attended by ${settings.attendedUser}: runs the robots they start, in their session`,
    'PartOf=graphical-session.target',
    'After=graphical-session.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${exec.map(unitWord).join(' ')}`,
    'Restart=always',
    'RestartSec=5',
    'KillMode=mixed',
    'TimeoutStopSec=90',
    'UMask=0077',
    '',
    '[Install]',
    'WantedBy=graphical-session.target',
    '',
  ].join('\n');
}

export function attendedInstallPlan(settings: InstallSettings): Plan {
  const paths = attendedPaths(settings.name, settings.home as string);
  const unit = `${settings.name}.service`;
  return {
    platform: 'linux',
    before: [],
    files: [
      { path: paths.programDir, action: 'folder', mode: 0o755 },
      { path: paths.executable, action: 'copy', from: settings.executable, mode: 0o755 },
      { path: paths.tokenDir, action: 'folder', mode: 0o700 },
      { path: paths.token, action: 'write', content: settings.token, mode: 0o600, secret: true },
      { path: settings.workDir ?? paths.workDir, action: 'folder', mode: 0o700 },
      { path: paths.unit, action: 'write', content: attendedUserUnit(settings), mode: 0o644 },
    ],
    after: [
      { argv: ['systemctl', '--user', 'daemon-reload'], why: 'your systemd reads the new unit' },
      {
        argv: ['systemctl', '--user', 'enable', '--now', unit],
        why: 'started now and with every graphical session of yours',
      },
    ],
    notes: [
      path.posix.resolve(settings.tokenFile) === path.posix.resolve(paths.token)
        ? `the token is kept in ${paths.token} (yours only)`
        : `the token is kept in ${paths.token} (yours only); ${settings.tokenFile} may be deleted`,
      `it takes only the runs ${settings.attendedUser} starts: the console's "My robots", or rota-agent run <robot>`,
      `logs: journalctl --user -u ${unit}; state: rota-agent status --attended${settings.name === 'rota-agent' ? '' : ` --name ${settings.name}`}`,
    ],
  };
}

export function attendedUninstallPlan(settings: UninstallSettings): Plan {
  const paths = attendedPaths(settings.name, settings.home as string);
  const unit = `${settings.name}.service`;
  return {
    platform: 'linux',
    before: [
      {
        argv: ['systemctl', '--user', 'disable', '--now', unit],
        why: 'stopped (its robots get their grace) and not started with your sessions',
        mayFail: true,
      },
    ],
    files: installedFiles(paths),
    after: [
      { argv: ['systemctl', '--user', 'daemon-reload'], why: 'your systemd forgets the unit' },
    ],
    notes: [`kept: the work folder (${paths.workDir} by default)`],
  };
}
