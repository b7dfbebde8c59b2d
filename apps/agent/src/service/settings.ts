import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isSea } from 'node:sea';
import { z } from 'zod';

export type ServicePlatform = 'linux' | 'win32';

export interface InstallSettings {
  platform: ServicePlatform;
  servers: string[];
  /** The token file as given, and the token read from it (never printed, never an argument). */
  tokenFile: string;
  token: string;
  /** The service's name: the unit, the Windows service id, the logon task, their folders. */
  name: string;
  workDir?: string;
  desktop: boolean;
  /** Windows `DOMAIN\user` the logon task runs for (`--desktop`, `--attended`). */
  user?: string;
  /** `--attended --user ACCESS`: the Rota user whose own runs alone the agent takes. */
  attendedUser?: string;
  /** Linux, attended: the home of the user installing it, where the user unit goes. */
  home?: string;
  /** The agent executable the service starts, copied into the service's folder. */
  executable: string;
  /** WinSW's executable, copied next to the service definition (Windows service). */
  winsw?: string;
  print: boolean;
  root?: string;
}

export interface UninstallSettings {
  platform: ServicePlatform;
  name: string;
  desktop: boolean;
  /** An attended agent's: on Linux a user unit of the user running the command. */
  attended?: boolean;
  home?: string;
  print: boolean;
  root?: string;
}

export type StatusSettings = Pick<UninstallSettings, 'platform' | 'name' | 'desktop' | 'attended'>;

export type Parsed<T> =
  { kind: 'ok'; settings: T } | { kind: 'help' } | { kind: 'invalid'; problems: string[] };

export const SERVICE_USAGE = `Usage:
  rota-agent install --server <url> --token-file <path> [--name <name>] [--work-dir <dir>]
                     [--desktop [--user <DOMAIN\\user>] | --attended --user <access>]
                     [--print] [--root <dir>]
  rota-agent uninstall [--name <name>] [--desktop | --attended] [--print] [--root <dir>]
  rota-agent status [--name <name>] [--desktop | --attended]

  install registers this executable as a service that starts at boot: a systemd unit on Linux
  (user rota-agent, the token passed as a systemd credential), a Windows service through WinSW,
  or with --desktop (Windows) a task at the user's logon, in their desktop session, for robots
  that drive the desktop. The token is copied from --token-file into a file only root (Linux) or
  SYSTEM and Administrators (Windows) may read; it is never put on a command line.

  --attended --user <access> installs an attended agent for the person signed in: it runs in
  their desktop session (a logon task on Windows, a systemd user unit of their graphical session
  on Linux; run install as that person, not as root) and takes only the runs the Rota user
  <access> starts, from the console's "My robots" or with rota-agent run.

  --name <name>       the service's name (default rota-agent): several agents may share a machine
  --work-dir <dir>    packages, robots and undelivered results (default /var/lib/<name>, or
                      C:\\ProgramData\\Rota Agent\\<name>\\work)
  --print             write nothing: print every file it would write and every command it would run
  --root <dir>        write the files under <dir> instead of /, and run no command
  --platform <p>      linux or win32: the platform whose files to make (default this one)
  --exec <path>       the executable the service starts (default this executable)
  --winsw <path>      Windows: WinSW-x64.exe (github.com/winsw/winsw/releases), copied
                      next to the service definition, which then registers and starts the service
`;

const BOOLEAN_FLAGS = {
  '--desktop': 'desktop',
  '--print': 'print',
  '--attended': 'attended',
} as const;
const VALUE_FLAGS = {
  '--server': 'servers',
  '--token-file': 'tokenFile',
  '--name': 'name',
  '--work-dir': 'workDir',
  '--user': 'user',
  '--root': 'root',
  '--platform': 'platform',
  '--exec': 'executable',
  '--winsw': 'winsw',
} as const;
type ValueKey = (typeof VALUE_FLAGS)[keyof typeof VALUE_FLAGS];
type BooleanKey = (typeof BOOLEAN_FLAGS)[keyof typeof BOOLEAN_FLAGS];

/** Which flags each command takes. */
const ACCEPTED: Record<'install' | 'uninstall' | 'status', readonly string[]> = {
  install: [...Object.keys(VALUE_FLAGS), ...Object.keys(BOOLEAN_FLAGS)],
  uninstall: ['--name', '--desktop', '--attended', '--print', '--root', '--platform'],
  status: ['--name', '--desktop', '--attended', '--platform'],
};

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '';
  } catch {
    return false;
  }
}

const nameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be lower-case letters, digits and hyphens (up to 40)')
  .default('rota-agent');
const platformSchema = z
  .enum(['linux', 'win32'], { error: 'must be linux or win32' })
  .default(process.platform === 'win32' ? 'win32' : 'linux');

const installSchema = z.object({
  servers: z
    .string({ error: 'is required' })
    .transform((value) => value.split(',').map((part) => part.trim()))
    .pipe(
      z
        .array(
          z
            .string()
            .refine(isHttpUrl, 'must be an http(s) URL such as https://rota.example.com')
            .transform((value) => value.replace(/\/+$/, '')),
        )
        .min(1)
        .max(16, 'takes at most 16 addresses'),
    ),
  tokenFile: z.string({ error: 'is required' }).min(1, 'is required'),
  name: nameSchema,
  workDir: z.string().min(1).optional(),
  user: z
    .string()
    .regex(/^[^"<>&]+$/, 'must be an account such as DOMAIN\\user')
    .optional(),
  root: z.string().min(1).optional(),
  platform: platformSchema,
  executable: z.string().min(1).optional(),
  winsw: z.string().min(1).optional(),
  desktop: z.boolean(),
  attended: z.boolean(),
  print: z.boolean(),
});

const FLAG_NAMES: Record<string, string> = Object.fromEntries(
  Object.entries({ ...VALUE_FLAGS, ...BOOLEAN_FLAGS }).map(([flag, key]) => [key, flag]),
);

/** The flags of one command, as `options.ts` reads the agent's: every problem at once. */
function readFlags(command: keyof typeof ACCEPTED, argv: readonly string[]) {
  const problems: string[] = [];
  const values: Partial<Record<ValueKey, string>> = {};
  const booleans: Record<BooleanKey, boolean> = { desktop: false, print: false, attended: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { help: true as const };
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (!ACCEPTED[command].includes(name)) {
      problems.push(
        arg.startsWith('-') ? `unknown option ${name}` : `unexpected argument "${arg}"`,
      );
      continue;
    }
    if (Object.hasOwn(BOOLEAN_FLAGS, name)) {
      booleans[BOOLEAN_FLAGS[name as keyof typeof BOOLEAN_FLAGS]] = true;
      continue;
    }
    const key = VALUE_FLAGS[name as keyof typeof VALUE_FLAGS];
    let value: string;
    if (eq > 0) {
      value = arg.slice(eq + 1);
    } else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) {
        problems.push(`${name} needs a value`);
        continue;
      }
      value = next;
      i += 1;
    }
    if (values[key] !== undefined) problems.push(`${name} is given more than once`);
    values[key] = value;
  }
  return { help: false as const, problems, values, booleans };
}

function issuesToProblems(issues: z.core.$ZodIssue[], problems: string[]) {
  for (const issue of issues) {
    const key = issue.path[0];
    problems.push(typeof key === 'string' ? `${FLAG_NAMES[key]} ${issue.message}` : issue.message);
  }
}

export interface InstallContext {
  env: NodeJS.ProcessEnv;
  readText?: (file: string) => string;
  /** This agent's executable: process.execPath when packaged, none when run from source. */
  ownExecutable?: string;
}

export function defaultOwnExecutable(): string | undefined {
  return isSea() ? process.execPath : undefined;
}

export function parseInstall(
  argv: readonly string[],
  context: InstallContext,
): Parsed<InstallSettings> {
  const flags = readFlags('install', argv);
  if (flags.help) return { kind: 'help' };
  const { problems, values, booleans } = flags;
  const result = installSchema.safeParse({ ...values, ...booleans });
  if (!result.success) issuesToProblems(result.error.issues, problems);
  if (!result.success) return { kind: 'invalid', problems };
  const data = result.data;
  if (data.desktop && data.platform !== 'win32') {
    problems.push("--desktop is for Windows, where desktop robots need the user's session");
  }
  if (data.user !== undefined && !data.desktop && !data.attended) {
    problems.push('--user goes with --desktop or --attended');
  }
  if (data.winsw !== undefined && (data.platform !== 'win32' || data.desktop || data.attended)) {
    problems.push('--winsw is for the Windows service (not --desktop or --attended)');
  }
  if (data.attended && data.user === undefined) {
    problems.push('--attended needs --user <access>: the Rota user it serves');
  }
  if (data.attended && data.desktop) {
    problems.push('--attended runs in the desktop session already: leave out --desktop');
  }
  const executable = data.executable ?? context.ownExecutable;
  if (executable === undefined) {
    problems.push(
      '--exec is required when the agent runs from source (the packaged agent installs itself)',
    );
  }
  const read = context.readText ?? ((file: string) => readFileSync(file, 'utf8'));
  let token = '';
  try {
    token = read(data.tokenFile).trim();
    if (token === '') problems.push(`--token-file ${data.tokenFile} is empty`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    problems.push(`--token-file ${data.tokenFile} cannot be read (${code})`);
  }
  const windowsUser =
    context.env.USERNAME !== undefined
      ? `${context.env.USERDOMAIN ?? '.'}\\${context.env.USERNAME}`
      : undefined;
  // Attended: --user is the Rota access, and the session is the installing person's own.
  const desktop = data.desktop || (data.attended && data.platform === 'win32');
  const user = data.attended ? windowsUser : data.desktop ? (data.user ?? windowsUser) : undefined;
  if (data.desktop && user === undefined) problems.push('--user is required with --desktop here');
  if (desktop && data.attended && user === undefined) {
    problems.push('install --attended on Windows as the person whose desktop runs the robots');
  }
  const home = data.attended && data.platform === 'linux' ? context.env.HOME : undefined;
  if (data.attended && data.platform === 'linux' && !home) {
    problems.push('install --attended as the person it serves (their HOME holds the user unit)');
  }
  if (problems.length > 0) return { kind: 'invalid', problems };
  // A path for another platform (--platform win32 --print on Linux) is taken as written.
  const resolveDir = data.platform === process.platform ? path.resolve : (dir: string) => dir;
  return {
    kind: 'ok',
    settings: {
      platform: data.platform,
      servers: data.servers,
      tokenFile: data.tokenFile,
      token,
      name: data.name,
      workDir: data.workDir === undefined ? undefined : resolveDir(data.workDir),
      desktop,
      user: desktop ? user : undefined,
      ...(data.attended ? { attendedUser: data.user } : {}),
      ...(home ? { home } : {}),
      executable: executable as string,
      winsw: data.winsw,
      print: data.print,
      root: data.root === undefined ? undefined : path.resolve(data.root),
    },
  };
}

const uninstallSchema = z.object({
  name: nameSchema,
  platform: platformSchema,
  root: z.string().min(1).optional(),
  desktop: z.boolean(),
  attended: z.boolean(),
  print: z.boolean(),
});

/** Attended on Windows is the logon task; on Linux the user unit under HOME. */
function attendedAs<
  T extends { platform: ServicePlatform; desktop: boolean; attended?: boolean | undefined },
>(settings: T, env: NodeJS.ProcessEnv, problems: string[]): T & { home?: string } {
  if (!settings.attended) return settings;
  if (settings.platform === 'win32') return { ...settings, desktop: true };
  if (!env.HOME) problems.push('run it as the person the attended agent serves (HOME is unset)');
  return { ...settings, home: env.HOME };
}

export function parseUninstall(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Parsed<UninstallSettings> {
  const flags = readFlags('uninstall', argv);
  if (flags.help) return { kind: 'help' };
  const { problems, values, booleans } = flags;
  const result = uninstallSchema.safeParse({ ...values, ...booleans });
  if (!result.success) issuesToProblems(result.error.issues, problems);
  if (problems.length > 0 || !result.success) return { kind: 'invalid', problems };
  const settings = attendedAs(result.data, env, problems);
  if (problems.length > 0) return { kind: 'invalid', problems };
  const { root } = settings;
  return {
    kind: 'ok',
    settings: { ...settings, root: root === undefined ? undefined : path.resolve(root) },
  };
}

export function parseStatus(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Parsed<StatusSettings> {
  const flags = readFlags('status', argv);
  if (flags.help) return { kind: 'help' };
  const { problems, values, booleans } = flags;
  const result = uninstallSchema
    .pick({ name: true, platform: true, desktop: true, attended: true })
    .safeParse({ ...values, desktop: booleans.desktop, attended: booleans.attended });
  if (!result.success) issuesToProblems(result.error.issues, problems);
  if (problems.length > 0 || !result.success) return { kind: 'invalid', problems };
  const settings = attendedAs(result.data, env, problems);
  if (problems.length > 0) return { kind: 'invalid', problems };
  return { kind: 'ok', settings };
}
