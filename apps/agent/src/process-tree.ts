import { spawn, spawnSync } from 'node:child_process';

/**
 * Robots are started detached on POSIX, so each is the leader of its own process group and a
 * signal to `-pid` reaches every process it started (a shell, the interpreter, its helpers).
 * On Windows `taskkill /T` walks the tree instead.
 */

interface KillOptions {
  /** How long the group may take to exit after SIGTERM before SIGKILL (POSIX). */
  graceMs?: number;
  /** How often to check whether the group is gone. */
  pollMs?: number;
  /**
   * Windows: ask first (`taskkill /T` without `/F`, the closest Node has to CTRL_BREAK for a
   * tree) and force it only after `graceMs`; without it Windows kills at once. Untested here.
   */
  politeOnWindows?: boolean;
}

const isWindows = process.platform === 'win32';

/**
 * Resolves once the tree is gone (or SIGKILL was sent to what was left of it): true when it had
 * to be killed (it was still there when the grace ended), false when it ended on SIGTERM.
 */
export async function killProcessTree(pid: number, options: KillOptions = {}): Promise<boolean> {
  const graceMs = options.graceMs ?? 5_000;
  const pollMs = options.pollMs ?? 100;
  if (isWindows) {
    if (!options.politeOnWindows) {
      await taskkill(pid);
      return true;
    }
    await taskkill(pid, false);
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      if (!signalGroup(pid, 0, false)) return false;
    }
    await taskkill(pid);
    return true;
  }
  if (!signalGroup(pid, 'SIGTERM')) return false;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    if (!isProcessGroupAlive(pid)) return false;
  }
  return signalGroup(pid, 'SIGKILL');
}

/** For a second Ctrl-C: no grace, no waiting. */
export function killProcessTreeNow(pid: number): void {
  if (isWindows) {
    spawnSync('taskkill', ['/PID', String(pid), '/T', '/F'], { windowsHide: true });
    return;
  }
  signalGroup(pid, 'SIGKILL');
}

export function isProcessGroupAlive(pid: number): boolean {
  return signalGroup(pid, 0);
}

/** False when no process of the group (or, with `group` false, the process) is left. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0, group = true): boolean {
  try {
    process.kill(group ? -pid : pid, signal);
    return true;
  } catch (error) {
    // EPERM: something of the group still exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function taskkill(pid: number, force = true): Promise<void> {
  return new Promise((resolve) => {
    const args = ['/PID', String(pid), '/T', ...(force ? ['/F'] : [])];
    const child = spawn('taskkill', args, {
      windowsHide: true,
      stdio: 'ignore',
    });
    // A tree that is already gone makes taskkill fail; that is the outcome we wanted anyway.
    child.once('error', () => resolve());
    child.once('exit', () => resolve());
  });
}

/** The environment variable that marks every process of a run (and survives setsid). */
const RUN_MARKER_VARIABLE = 'ROTA_AGENT_RUN';

/** `ROTA_AGENT_RUN=<work dir>|` — the part of the marker every run of one work dir shares. */
export function workDirMarker(workDir: string): string {
  return `${RUN_MARKER_VARIABLE}=${workDir}|`;
}

/** The whole marker of one attempt. */
export function runMarker(workDir: string, executionId: number, attempt: number): string {
  return `${workDirMarker(workDir)}${executionId}-${attempt}`;
}

/**
 * SIGKILLs every process (but this one) whose environment has an entry starting with
 * `prefix`; answers how many. Linux only (it reads /proc); elsewhere it finds nothing. Used at
 * start to end what an earlier instance of the agent left running in its work dir.
 */
export async function killMarkedProcesses(prefix: string): Promise<number> {
  if (process.platform !== 'linux') return 0;
  const { readdir, readFile } = await import('node:fs/promises');
  const inside = Buffer.from(`\0${prefix}`);
  const atStart = Buffer.from(prefix);
  let killed = 0;
  // A process may fork while we look: a few passes catch its children.
  for (let pass = 0; pass < 5; pass += 1) {
    let found = 0;
    const names = await readdir('/proc').catch(() => [] as string[]);
    for (const name of names) {
      if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
      const environ = await readFile(`/proc/${name}/environ`).catch(() => null);
      if (!environ || (environ.indexOf(inside) < 0 && environ.indexOf(atStart) !== 0)) continue;
      try {
        process.kill(Number(name), 'SIGKILL');
        found += 1;
      } catch {
        // already gone, or not ours
      }
    }
    killed += found;
    if (found === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return killed;
}
