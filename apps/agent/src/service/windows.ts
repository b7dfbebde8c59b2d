import path from 'node:path';
import { windowsArgument, type Plan, type PlannedCommand, type PlannedFile } from './plan.js';
import type { InstallSettings, UninstallSettings } from './settings.js';

/** Well-known SIDs, so the ACL does not depend on the language Windows names its accounts in. */
const SYSTEM_SID = '*S-1-5-18';
const ADMINISTRATORS_SID = '*S-1-5-32-544';

/** WinSW 2.x, the wrapper that makes a console program a Windows service. */
export const WINSW_RELEASES = 'https://github.com/winsw/winsw/releases';

export function windowsPaths(name: string) {
  const program = path.win32.join('C:\\Program Files\\Rota Agent', name);
  const data = path.win32.join('C:\\ProgramData\\Rota Agent', name);
  return {
    program,
    executable: path.win32.join(program, 'rota-agent.exe'),
    serviceXml: path.win32.join(program, `${name}-service.xml`),
    // WinSW reads the XML named as itself: rota-agent-service.exe next to rota-agent-service.xml.
    winsw: path.win32.join(program, `${name}-service.exe`),
    taskXml: path.win32.join(program, `${name}-logon-task.xml`),
    taskName: `Rota\\${name}`,
    credentials: path.win32.join(data, 'credentials'),
    token: path.win32.join(data, 'credentials', 'token'),
    workDir: path.win32.join(data, 'work'),
    logs: path.win32.join(data, 'logs'),
  };
}

const xmlText = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

function agentArguments(settings: InstallSettings, mode: 'service' | 'desktop'): string {
  const paths = windowsPaths(settings.name);
  return [
    '--server',
    settings.servers.join(','),
    '--token-file',
    paths.token,
    '--work-dir',
    settings.workDir ?? paths.workDir,
    '--mode',
    mode,
    ...(settings.attendedUser === undefined ? [] : ['--attended', '--user', settings.attendedUser]),
  ]
    .map(windowsArgument)
    .join(' ');
}

/**
 * WinSW's service definition. It runs the agent as LocalSystem in session 0, which suits
 * headless robots (browsers, APIs, files); WinSW stops it with Ctrl+C, which the agent takes as
 * it takes SIGINT: no new claims, running robots get their grace.
 */
export function winswXml(settings: InstallSettings): string {
  const paths = windowsPaths(settings.name);
  return [
    '<service>',
    `  <id>${xmlText(settings.name)}</id>`,
    `  <name>Rota agent (${xmlText(settings.name)})</name>`,
    '  <description>Runs Rota robots on this machine.</description>',
    `  <executable>${xmlText(paths.executable)}</executable>`,
    `  <arguments>${xmlText(agentArguments(settings, 'service'))}</arguments>`,
    `  <workingdirectory>${xmlText(settings.workDir ?? paths.workDir)}</workingdirectory>`,
    '  <startmode>Automatic</startmode>',
    '  <delayedAutoStart>true</delayedAutoStart>',
    // Exit 75 (the agent replaced its executable: an update, a roll-back) is a failure to WinSW
    // on purpose: only a failure restarts it, and so the new executable starts.
    '  <onfailure action="restart" delay="10 sec"/>',
    '  <onfailure action="restart" delay="30 sec"/>',
    '  <onfailure action="restart" delay="60 sec"/>',
    '  <resetfailure>1 hour</resetfailure>',
    // The agent's own grace for running robots is 60 s; the stop waits a little longer.
    '  <stoptimeout>90 sec</stoptimeout>',
    '  <stopparentprocessfirst>true</stopparentprocessfirst>',
    `  <logpath>${xmlText(paths.logs)}</logpath>`,
    '  <log mode="roll-by-size">',
    '    <sizeThreshold>10240</sizeThreshold>',
    '    <keepFiles>8</keepFiles>',
    '  </log>',
    '</service>',
    '',
  ].join('\r\n');
}

/**
 * The Task Scheduler task for robots that drive the desktop: started at the user's logon, in
 * their interactive session (a service's session 0 has no desktop a UI robot could use),
 * restarted when it fails, never stopped for running long.
 */
export function logonTaskXml(settings: InstallSettings): string {
  const paths = windowsPaths(settings.name);
  const user = xmlText(settings.user ?? '');
  return [
    '<?xml version="1.0" encoding="UTF-16"?>',
    '<Task version="1.4" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">',
    '  <RegistrationInfo>',
    `    <Description>Rota agent (${xmlText(settings.name)}) in the desktop session of ${user}</Description>`,
    `    <URI>\\${xmlText(paths.taskName)}</URI>`,
    '  </RegistrationInfo>',
    '  <Triggers>',
    '    <LogonTrigger>',
    '      <Enabled>true</Enabled>',
    `      <UserId>${user}</UserId>`,
    '    </LogonTrigger>',
    '  </Triggers>',
    '  <Principals>',
    '    <Principal id="Author">',
    `      <UserId>${user}</UserId>`,
    '      <LogonType>InteractiveToken</LogonType>',
    '      <RunLevel>LeastPrivilege</RunLevel>',
    '    </Principal>',
    '  </Principals>',
    '  <Settings>',
    '    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>',
    '    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>',
    '    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>',
    '    <StartWhenAvailable>true</StartWhenAvailable>',
    '    <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>',
    '    <RestartOnFailure>',
    '      <Interval>PT1M</Interval>',
    '      <Count>999</Count>',
    '    </RestartOnFailure>',
    '    <Enabled>true</Enabled>',
    '  </Settings>',
    '  <Actions Context="Author">',
    '    <Exec>',
    `      <Command>${xmlText(paths.executable)}</Command>`,
    `      <Arguments>${xmlText(agentArguments(settings, 'desktop'))}</Arguments>`,
    `      <WorkingDirectory>${xmlText(settings.workDir ?? paths.workDir)}</WorkingDirectory>`,
    '    </Exec>',
    '  </Actions>',
    '</Task>',
    '',
  ].join('\r\n');
}

/**
 * The token's folder, made and closed before the token is written in it, so the file is never
 * readable through ProgramData's inherited ACL (Users may read there): only SYSTEM and
 * Administrators, and with --desktop the task's user, to read.
 */
function credentialsFolder(folder: string, reader?: string): PlannedFile {
  const grant = (who: string, right: string) => `${who}:(OI)(CI)${right}`;
  return {
    path: folder,
    action: 'folder',
    then: [
      {
        argv: [
          'icacls',
          folder,
          '/inheritance:r',
          '/grant:r',
          grant(SYSTEM_SID, 'F'),
          grant(ADMINISTRATORS_SID, 'F'),
          ...(reader === undefined ? [] : [grant(reader, 'R')]),
        ],
        why: `only SYSTEM and Administrators${reader === undefined ? '' : ` and ${reader} (to read)`} may open the token`,
      },
    ],
  };
}

export function windowsInstallPlan(settings: InstallSettings): Plan {
  const paths = windowsPaths(settings.name);
  const files: Plan['files'] = [
    { path: paths.executable, action: 'copy', from: settings.executable },
    credentialsFolder(paths.credentials, settings.desktop ? settings.user : undefined),
    { path: paths.token, action: 'write', content: settings.token, secret: true },
  ];
  if (settings.desktop) {
    // schtasks reads task XML that declares UTF-16 as UTF-16, byte order mark first.
    files.push({
      path: paths.taskXml,
      action: 'write',
      content: logonTaskXml(settings),
      utf16: true,
    });
    return {
      platform: 'win32',
      before: [],
      files,
      after: [
        {
          argv: ['icacls', paths.program, '/grant', `${settings.user}:(OI)(CI)M`],
          why: `${settings.user}, whose session runs the agent, may replace its executable (updates)`,
        },
        {
          argv: ['schtasks', '/Create', '/TN', paths.taskName, '/XML', paths.taskXml, '/F'],
          why: `the task that starts the agent at ${settings.user}'s logon`,
        },
        { argv: ['schtasks', '/Run', '/TN', paths.taskName], why: 'started now, in this session' },
      ],
      notes: [
        `the agent runs while ${settings.user} is signed in; for unattended desktop robots sign that user in automatically and keep the session unlocked`,
      ],
    };
  }
  files.push({ path: paths.serviceXml, action: 'write', content: winswXml(settings) });
  if (settings.winsw !== undefined) {
    files.push({ path: paths.winsw, action: 'copy', from: settings.winsw });
  }
  return {
    platform: 'win32',
    before: [],
    files,
    after: [
      {
        argv: [paths.winsw, 'install'],
        why: `the Windows service ${settings.name}, started at boot`,
        ifExists: settings.winsw === undefined ? paths.winsw : undefined,
      },
      {
        argv: [paths.winsw, 'start'],
        why: 'started now',
        ifExists: settings.winsw === undefined ? paths.winsw : undefined,
      },
    ],
    notes: [
      ...(settings.winsw === undefined
        ? [
            `WinSW (WinSW-x64.exe 2.12 or later, ${WINSW_RELEASES}) goes next to ${paths.serviceXml} as ${paths.winsw}: give it with --winsw, or place it there and run "${paths.winsw}" install, then start`,
          ]
        : []),
      `logs: ${paths.logs}; state: rota-agent status${settings.name === 'rota-agent' ? '' : ` --name ${settings.name}`}`,
    ],
  };
}

export function windowsUninstallPlan(settings: UninstallSettings): Plan {
  const paths = windowsPaths(settings.name);
  const before: PlannedCommand[] = settings.desktop
    ? [
        { argv: ['schtasks', '/End', '/TN', paths.taskName], why: 'stopped', mayFail: true },
        {
          argv: ['schtasks', '/Delete', '/TN', paths.taskName, '/F'],
          why: 'no longer started at logon',
          mayFail: true,
        },
      ]
    : [
        { argv: [paths.winsw, 'stop'], why: 'stopped', ifExists: paths.winsw, mayFail: true },
        {
          argv: [paths.winsw, 'uninstall'],
          why: 'no longer a service',
          ifExists: paths.winsw,
          mayFail: true,
        },
      ];
  return {
    platform: 'win32',
    before,
    files: [
      { path: paths.executable, action: 'remove' },
      { path: `${paths.executable}.previous`, action: 'remove' },
      // A roll-back renames the new executable it gave up on away (a running .exe cannot go).
      { path: `${paths.executable}.failed`, action: 'remove' },
      { path: path.win32.join(paths.program, 'update.json'), action: 'remove' },
      { path: path.win32.join(paths.program, 'update-rejected.json'), action: 'remove' },
      { path: paths.token, action: 'remove' },
      { path: settings.desktop ? paths.taskXml : paths.serviceXml, action: 'remove' },
    ],
    after: [],
    notes: [`kept: the work folder and logs under ${path.win32.dirname(paths.credentials)}`],
  };
}
