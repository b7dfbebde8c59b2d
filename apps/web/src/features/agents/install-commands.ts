import type { AgentPlatform } from '@rota/contract';

/** Where the install commands write the token; the installer copies it into its own place. */
export const TOKEN_FILE: Record<AgentPlatform, string> = {
  'linux-x64': '/etc/rota-agent/token',
  'win-x64': 'C:\\ProgramData\\RotaAgent\\token',
};

/** The name `npm run package:agent` gives each executable, and the download keeps. */
export const EXECUTABLE: Record<AgentPlatform, string> = {
  'linux-x64': 'rota-agent-linux-x64',
  'win-x64': 'rota-agent-win-x64.exe',
};

/** Stands in the commands for a token the console no longer has (it is shown once). */
export const TOKEN_PLACEHOLDER = '<agent token>';

export interface InstallOptions {
  /** This server, as the agent must reach it: the console's own origin. */
  origin: string;
  /** The token, when the dialog was opened where it is shown once; never fetched again. */
  token?: string;
  /** Windows: a task at the user's logon, for robots that drive the desktop. */
  desktop?: boolean;
}

export interface InstallStep {
  key: 'token' | 'install';
  command: string;
}

/** A PowerShell single-quoted string: a quote inside is doubled. */
const psQuoted = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The commands that put the downloaded agent on a machine as a service, in the form the platform
 * needs. The token is written to a file only root (Linux) or SYSTEM and Administrators (Windows)
 * may read, from standard input or a cmdlet's argument: never on a command line other users of
 * the machine can list.
 */
export function installSteps(platform: AgentPlatform, options: InstallOptions): InstallStep[] {
  const token = options.token ?? TOKEN_PLACEHOLDER;
  const file = TOKEN_FILE[platform];
  if (platform === 'linux-x64') {
    return [
      {
        key: 'token',
        command: [`sudo install -D -m 600 /dev/stdin ${file} <<'EOF'`, token, 'EOF'].join('\n'),
      },
      {
        key: 'install',
        command: [
          `chmod +x ./${EXECUTABLE[platform]}`,
          `sudo ./${EXECUTABLE[platform]} install --server ${options.origin} --token-file ${file}`,
        ].join('\n'),
      },
    ];
  }
  const folder = file.slice(0, file.lastIndexOf('\\'));
  return [
    {
      key: 'token',
      // The folder is closed before the token is written, so the file never inherits
      // ProgramData's read for Users, even for a moment. By SID: the group names are translated
      // on a Portuguese Windows.
      command: [
        `New-Item -ItemType Directory -Force -Path ${folder} | Out-Null`,
        `icacls ${folder} /inheritance:r /grant:r '*S-1-5-18:(OI)(CI)F' '*S-1-5-32-544:(OI)(CI)F'`,
        `Set-Content -NoNewline -Path ${file} -Value ${psQuoted(token)}`,
      ].join('\n'),
    },
    {
      key: 'install',
      command: `.\\${EXECUTABLE[platform]} install --server ${options.origin} --token-file ${file}${
        options.desktop ? ' --desktop' : ''
      }`,
    },
  ];
}
