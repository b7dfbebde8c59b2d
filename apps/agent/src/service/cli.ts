import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describePlan, shownCommand, type Plan, type PlannedCommand } from './plan.js';
import {
  defaultOwnExecutable,
  parseInstall,
  parseStatus,
  parseUninstall,
  SERVICE_USAGE,
  type Parsed,
  type StatusSettings,
} from './settings.js';
import {
  attendedInstallPlan,
  attendedPaths,
  attendedUninstallPlan,
  linuxInstallPlan,
  linuxPaths,
  linuxUninstallPlan,
} from './systemd.js';
import { windowsInstallPlan, windowsPaths, windowsUninstallPlan } from './windows.js';

export const SERVICE_COMMANDS = ['install', 'uninstall', 'status'] as const;
export type ServiceCommand = (typeof SERVICE_COMMANDS)[number];

export interface CommandResult {
  status: number | null;
  output: string;
}

/** What the commands touch outside themselves, so a test can stand in for the machine. */
export interface ServiceIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
  run: (argv: readonly string[]) => CommandResult;
  /** Whether systemd is the init system (sd_booted's test: /run/systemd/system exists). */
  systemdRunning: () => boolean;
  isRoot: () => boolean;
  ownExecutable?: string;
}

function runCommand(argv: readonly string[]): CommandResult {
  const [command, ...args] = argv as [string, ...string[]];
  const result = spawnSync(command, args, { encoding: 'utf8', windowsHide: true });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? result.error.message : ''}`;
  return { status: result.error ? null : result.status, output };
}

export const machineIo = (): ServiceIo => ({
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  run: runCommand,
  systemdRunning: () => existsSync('/run/systemd/system'),
  isRoot: () => process.getuid?.() === 0,
  ownExecutable: defaultOwnExecutable(),
});

/** `install`, `uninstall`, `status`: 0 done, 1 failed, 2 bad options, 3 (status) not running. */
export async function runServiceCommand(
  command: ServiceCommand,
  argv: readonly string[],
  io: ServiceIo = machineIo(),
): Promise<number> {
  if (command === 'status') {
    const parsed = parseStatus(argv, io.env);
    return parsed.kind === 'ok' ? status(parsed.settings, io) : (settled(parsed, io) as number);
  }
  const made = command === 'install' ? installPlan(argv, io) : uninstallPlan(argv, io);
  if (typeof made === 'number') return made;
  const { settings, plan } = made;
  const attendedHere = settings.attended && plan.platform === 'linux';

  if (settings.print) {
    io.out(describePlan(plan));
    return 0;
  }
  if (settings.root === undefined && settings.platform !== process.platform) {
    io.err(
      `rota-agent: ${command} for ${settings.platform} runs there; here use --print or --root\n`,
    );
    return 1;
  }
  if (settings.root === undefined && plan.platform === 'linux') {
    if (!io.systemdRunning()) {
      io.err(
        `rota-agent: systemd is not running on this machine (it is not PID 1), so there is no service manager to ${command} with. Use --print to see the unit, or start the agent another way.\n`,
      );
      return 1;
    }
    if (attendedHere && io.isRoot()) {
      io.err(
        `rota-agent: ${command} --attended is for the person it serves: run it as them, not as root\n`,
      );
      return 1;
    }
    if (!attendedHere && !io.isRoot()) {
      io.err(`rota-agent: ${command} writes to /etc and /opt: run it as root (sudo)\n`);
      return 1;
    }
  }
  try {
    await applyPlan(plan, settings.root, io);
  } catch (error) {
    io.err(`rota-agent: ${command} failed: ${error instanceof Error ? error.message : error}\n`);
    return 1;
  }
  for (const note of plan.notes) io.out(`note: ${note}\n`);
  io.out(`${command === 'install' ? 'installed' : 'uninstalled'} ${settings.name}\n`);
  return 0;
}

interface PlannedCommandLine {
  settings: {
    name: string;
    platform: Plan['platform'];
    print: boolean;
    root?: string;
    attended?: boolean;
  };
  plan: Plan;
}

function installPlan(argv: readonly string[], io: ServiceIo): PlannedCommandLine | number {
  const parsed = parseInstall(argv, { env: io.env, ownExecutable: io.ownExecutable });
  if (parsed.kind !== 'ok') return settled(parsed, io) as number;
  const { settings } = parsed;
  const attended = settings.attendedUser !== undefined;
  const plan =
    settings.platform === 'win32'
      ? windowsInstallPlan(settings)
      : attended
        ? attendedInstallPlan(settings)
        : linuxInstallPlan(settings);
  return { settings: { ...settings, attended }, plan };
}

function uninstallPlan(argv: readonly string[], io: ServiceIo): PlannedCommandLine | number {
  const parsed = parseUninstall(argv, io.env);
  if (parsed.kind !== 'ok') return settled(parsed, io) as number;
  const { settings } = parsed;
  const plan =
    settings.platform === 'win32'
      ? windowsUninstallPlan(settings)
      : settings.attended
        ? attendedUninstallPlan(settings)
        : linuxUninstallPlan(settings);
  return { settings, plan };
}

function settled<T>(parsed: Parsed<T>, io: ServiceIo): number | undefined {
  if (parsed.kind === 'help') {
    io.out(SERVICE_USAGE);
    return 0;
  }
  if (parsed.kind === 'invalid') {
    io.err(
      `rota-agent: invalid options:\n${parsed.problems.map((p) => `  - ${p}\n`).join('')}\n${SERVICE_USAGE}`,
    );
    return 2;
  }
  return undefined;
}

/** A plan's path under `root`: `C:\Program Files\…` becomes `<root>/C/Program Files/…`. */
export function underRoot(root: string, file: string, platform: Plan['platform']): string {
  if (platform === 'linux') return path.join(root, file);
  const [drive, ...rest] = file.split(/[\\/]+/);
  return path.join(root, (drive ?? '').replace(/:$/, ''), ...rest);
}

async function applyPlan(plan: Plan, root: string | undefined, io: ServiceIo): Promise<void> {
  // Under a root (a test, a machine image) the files are written and no command is run.
  const step = (command: PlannedCommand) =>
    root === undefined
      ? runStep(command, plan.platform, io)
      : io.out(`not run (--root): ${shownCommand(command.argv, plan.platform)}\n`);
  for (const command of plan.before) step(command);
  for (const file of plan.files) {
    const target = root === undefined ? file.path : underRoot(root, file.path, plan.platform);
    if (file.action === 'remove') {
      await rm(target, { force: true });
      continue;
    }
    if (file.action === 'folder') {
      await mkdir(target, { recursive: true, mode: file.mode ?? 0o755 });
      if (file.mode !== undefined) await chmod(target, file.mode);
      for (const command of file.then ?? []) step(command);
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    // Beside the target, then renamed over it: a running executable can be replaced this way.
    const partial = `${target}.partial-${process.pid}`;
    if (file.action === 'copy') await copyFile(file.from as string, partial);
    else {
      const text = file.content ?? '';
      const bytes =
        file.utf16 && typeof text === 'string' ? Buffer.from(`\ufeff${text}`, 'utf16le') : text;
      await writeFile(partial, bytes, { mode: file.mode ?? 0o644 });
    }
    if (file.mode !== undefined) await chmod(partial, file.mode);
    await rename(partial, target);
    io.out(`wrote ${target}\n`);
    for (const command of file.then ?? []) step(command);
  }
  for (const command of plan.after) step(command);
}

function runStep(command: PlannedCommand, platform: Plan['platform'], io: ServiceIo): void {
  if (command.ifExists !== undefined && !existsSync(command.ifExists)) return;
  if (command.unless !== undefined && io.run(command.unless).status === 0) return;
  const shown = shownCommand(command.argv, platform);
  io.out(`running ${shown}\n`);
  const result = io.run(command.argv);
  if (result.status === 0) return;
  const said = result.output.trim();
  const message = `${shown} failed (${result.status === null ? 'could not start' : `exit code ${result.status}`})${said ? `: ${said}` : ''}`;
  if (!command.mayFail) throw new Error(message);
  io.err(`${message}; going on\n`);
}

/** What the service manager says of the agent's service: exit 0 running, 3 not running. */
function status(settings: StatusSettings, io: ServiceIo): number {
  if (settings.platform === 'linux') {
    if (!io.systemdRunning()) {
      io.err('rota-agent: systemd is not running on this machine (it is not PID 1)\n');
      return 1;
    }
    const attended = settings.attended === true;
    const unit = path.posix.basename(
      attended ? attendedPaths(settings.name, '/').unit : linuxPaths(settings.name).unit,
    );
    const shown = io.run([
      'systemctl',
      ...(attended ? ['--user'] : []),
      'show',
      unit,
      '--property=LoadState,ActiveState,SubState,UnitFileState,MainPID',
    ]);
    io.out(`${unit}\n${shown.output}`);
    return /^ActiveState=active$/m.test(shown.output) ? 0 : 3;
  }
  const paths = windowsPaths(settings.name);
  const shown = settings.desktop
    ? io.run(['schtasks', '/Query', '/TN', paths.taskName, '/V', '/FO', 'LIST'])
    : io.run(['sc.exe', 'query', settings.name]);
  io.out(shown.output);
  return shown.status === 0 && /RUNNING|Running/.test(shown.output) ? 0 : 3;
}
