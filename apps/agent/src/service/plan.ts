/**
 * What `install` and `uninstall` do, as data: the files to write (or copy, or remove) and the
 * commands to run before and after them. One plan is printed (`--print`), written under a root
 * (`--root`, for tests and for reviewing a machine image) or carried out on the machine.
 * Commands are argument lists run without a shell; none of them carries the token, only the
 * token file's name.
 */
export interface PlannedFile {
  /** Where it goes, on the target platform's own path syntax. */
  path: string;
  /**
   * 'write' puts `content`, 'copy' copies `from`, 'remove' deletes the file if it is there,
   * 'folder' makes the folder (with `mode`, and `then` run before anything is put in it).
   */
  action: 'write' | 'copy' | 'remove' | 'folder';
  content?: string | Buffer;
  from?: string;
  /** POSIX mode, on Linux. */
  mode?: number;
  /** Shown instead of the content when the content is a secret (the token). */
  secret?: boolean;
  /** Written as UTF-16 with a byte order mark (what schtasks reads) instead of UTF-8. */
  utf16?: boolean;
  /** Commands run right after this step (a folder's ACL, before the token goes in it). */
  then?: PlannedCommand[];
}

export interface PlannedCommand {
  argv: string[];
  why: string;
  /** Run only when this command fails (e.g. `id -u rota-agent` before useradd). */
  unless?: string[];
  /** Run only when this file exists (WinSW's executable, which the administrator places). */
  ifExists?: string;
  /** A failure is reported and the plan goes on (stopping a service that is not running). */
  mayFail?: boolean;
}

export interface Plan {
  platform: 'linux' | 'win32';
  before: PlannedCommand[];
  files: PlannedFile[];
  after: PlannedCommand[];
  /** What the administrator still does or should know, printed after a plan. */
  notes: string[];
}

/** One argument of a Windows command line (the rules CommandLineToArgvW reads back). */
export function windowsArgument(arg: string): string {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg;
  return `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
}

/** One argument as it would be typed into a POSIX shell. */
export function shellArgument(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command as an administrator would type it on the plan's platform. */
export const shownCommand = (argv: readonly string[], platform: Plan['platform']) =>
  argv.map(platform === 'win32' ? windowsArgument : shellArgument).join(' ');

const octal = (mode: number) => `0${mode.toString(8)}`;

/** The plan as text an administrator reviews: every file with its content, every command. */
export function describePlan(plan: Plan, verb: 'would' | 'will' = 'would'): string {
  const out: string[] = [];
  const command = (step: PlannedCommand) => describeCommand(step, verb, plan.platform);
  for (const step of plan.before) out.push(command(step));
  for (const file of plan.files) {
    const mode =
      plan.platform === 'linux' && file.mode !== undefined ? ` (mode ${octal(file.mode)})` : '';
    if (file.action === 'remove') {
      out.push(`# ${verb} remove ${file.path}`);
    } else if (file.action === 'folder') {
      out.push(`# ${verb} make the folder ${file.path}${mode}`);
    } else if (file.action === 'copy') {
      out.push(`# ${verb} copy ${file.from} to ${file.path}${mode}`);
    } else if (file.secret) {
      out.push(`# ${verb} write ${file.path}${mode}: the token (not shown)`);
    } else {
      const text = typeof file.content === 'string' ? file.content : '(binary)';
      out.push(
        `# ${verb} write ${file.path}${mode}:\n${text.replace(/\n$/, '')}\n# end of ${file.path}`,
      );
    }
    for (const step of file.then ?? []) out.push(command(step));
  }
  for (const step of plan.after) out.push(command(step));
  for (const note of plan.notes) out.push(`# note: ${note}`);
  return `${out.join('\n')}\n`;
}

function describeCommand(step: PlannedCommand, verb: string, platform: Plan['platform']): string {
  const condition = step.unless
    ? ` (unless \`${shownCommand(step.unless, platform)}\` succeeds)`
    : step.ifExists
      ? ` (if ${step.ifExists} exists)`
      : '';
  return `# ${verb} run${condition}: ${step.why}\n${shownCommand(step.argv, platform)}`;
}
