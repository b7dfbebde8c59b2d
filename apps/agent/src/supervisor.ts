import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { isSea } from 'node:sea';
import type { Readable } from 'node:stream';
import { killProcessTreeNow } from './process-tree.js';

/**
 * The dead-man switch between the agent and one robot: a robot never outlives its agent, so
 * the server may hand the run to another agent without two copies of it running at once.
 *
 * On POSIX two small shell processes do it, no second Node. The agent starts the watcher
 * (WATCH_SCRIPT) first, reading a pipe from the agent; then the launcher (RUN_SCRIPT), detached,
 * so it leads a process group of its own, in which it runs the robot's command line and ends
 * with its status. When the agent exits, crashes or is killed with SIGKILL, the kernel closes
 * the pipe, and the watcher kills the robot's group and, on Linux, every process still carrying
 * the run's marker in its environment (which also finds a helper that left the group with
 * setsid, and the robot itself if the agent died before it could name the group). The robot is
 * the launcher's child, not the agent's, so what kills the agent's own children leaves it to the
 * next start's sweep of the work dir rather than to chance.
 *
 * On Windows, the agent starts a Node supervisor (SUPERVISOR_SOURCE) over an IPC channel, which
 * ends the tree with `taskkill /T` when the channel closes.
 */
export const SUPERVISOR_SOURCE = String.raw`
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const config = JSON.parse(process.argv[1]);
const windows = process.platform === 'win32';
let pid;

function send(message) {
  try { if (process.connected) process.send(message); } catch (e) { /* the agent is gone */ }
}

function killMarked() {
  if (process.platform !== 'linux' || !config.marker) return;
  const needle = Buffer.from('\0' + config.marker + '\0');
  const first = Buffer.from(config.marker + '\0');
  for (let pass = 0; pass < 5; pass += 1) {
    let found = 0;
    let names = [];
    try { names = fs.readdirSync('/proc'); } catch (e) { return; }
    for (const name of names) {
      if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
      let environ;
      try { environ = fs.readFileSync('/proc/' + name + '/environ'); } catch (e) { continue; }
      if (environ.indexOf(needle) < 0 && environ.indexOf(first) !== 0) continue;
      try { process.kill(Number(name), 'SIGKILL'); found += 1; } catch (e) { /* gone */ }
    }
    if (found === 0) return;
  }
}

function killAll() {
  if (pid !== undefined) {
    if (windows) spawnSync('taskkill', ['/PID', String(pid), '/T', '/F'], { windowsHide: true });
    else { try { process.kill(-pid, 'SIGKILL'); } catch (e) { /* gone */ } }
  }
  killMarked();
}

// Signals meant for the agent's terminal are the agent's to act on, not ours.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
process.on('disconnect', () => { killAll(); process.exit(0); });
process.on('message', (message) => {
  if (message && message.type === 'cleanup') { killAll(); process.exit(0); }
});

const env = Object.assign({}, process.env);
delete env.NODE_CHANNEL_FD;
delete env.NODE_CHANNEL_SERIALIZATION_MODE;
let child;
try {
  child = spawn(config.executor, {
    shell: true, cwd: config.cwd, env, detached: !windows, windowsHide: true,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
} catch (error) {
  send({ type: 'error', message: String(error && error.message || error) });
  process.exit(0);
}
pid = child.pid;
if (pid !== undefined) send({ type: 'started', pid });
child.once('error', (error) => send({ type: 'error', message: error.message }));
child.once('exit', (code, signal) => send({ type: 'exit', code, signal }));
`;

/**
 * The robot's launcher: the leader of the run's process group. It runs the command line as
 * Node's `shell: true` would (`/bin/sh -c`) and ends as the robot did: with its exit code, or
 * killed by the same signal, which is how a shell reports a signal (128 + its number). Catching
 * the terminal's signals keeps it waiting for the robot while a stop's SIGTERM reaches the
 * group; a caught signal is the default again in the robot.
 */
export const RUN_SCRIPT = String.raw`trap : HUP INT TERM QUIT
/bin/sh -c "$1"
s=$?
if [ "$s" -gt 128 ] && n=$(kill -l "$s" 2>/dev/null); then trap - "$n"; kill -s "$n" $$; fi
exit "$s"`;

/**
 * The watcher: `marker <NAME=value>` and `group <pgid>` say what to kill, `ok` (the run ended
 * cleanly) ends it quietly; anything else, the end of the pipe included, kills the group and
 * sweeps the marker. Told nothing, it has nothing to do. It ignores the terminal's signals,
 * which are the agent's to act on.
 */
export const WATCH_SCRIPT = `trap '' HUP INT TERM QUIT
g=
m=
while IFS= read -r line; do
  case $line in
    marker\\ *) m=\${line#marker } ;;
    group\\ *) g=\${line#group } ;;
    ok) exit 0 ;;
    *) break ;;
  esac
done
[ -n "$g" ] && kill -KILL -"$g" 2>/dev/null
[ -n "$m" ] && [ -d /proc/self ] || exit 0
pass=0
while [ "$pass" -lt 5 ]; do
  found=
  for f in $(grep -lzxF -e "$m" /proc/[0-9]*/environ 2>/dev/null); do
    p=\${f#/proc/}
    p=\${p%/environ}
    kill -KILL "$p" 2>/dev/null && found=1
  done
  [ -n "$found" ] || break
  pass=$((pass + 1))
done
exit 0`;

/** The hidden sub-command a packaged agent starts itself with to become a run's supervisor. */
export const SUPERVISE_COMMAND = '__supervise';

/**
 * The arguments that start a run's supervisor with `process.execPath`: `node -e` from source or
 * from the bundle; in a packaged agent (a single executable application) execPath is the agent
 * itself, which takes no node options, so it is started with its hidden sub-command instead.
 */
export function supervisorArgs(config: SupervisorConfig): string[] {
  const json = JSON.stringify(config);
  return isSea() ? [SUPERVISE_COMMAND, json] : ['-e', SUPERVISOR_SOURCE, json];
}

/**
 * Becomes the supervisor in this process: what `node -e SUPERVISOR_SOURCE <config>` does, for a
 * packaged agent started as `rota-agent __supervise <config>`. The source reads its config from
 * argv[1] and loads only Node's own modules, which a packaged agent's require can load.
 */
export function runSupervisor(configJson: string): void {
  process.argv = [process.execPath, configJson];
  const load = createRequire(process.execPath);
  new Function('require', SUPERVISOR_SOURCE)(load);
}

/** What the supervisor reports over its channel. */
export type SupervisorMessage =
  | { type: 'started'; pid: number }
  | { type: 'exit'; code: number | null; signal: NodeJS.Signals | null }
  | { type: 'error'; message: string };

/** Arguments of `node -e SUPERVISOR_SOURCE <config>`; also what starts a robot. */
export interface SupervisorConfig {
  executor: string;
  cwd: string;
  /** `NAME=value` present in the robot's environment, found again through /proc on Linux. */
  marker: string;
}

export type ProcessOutcome =
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'error'; message: string };

export interface StartRobotOptions extends SupervisorConfig {
  env: NodeJS.ProcessEnv;
  /** The robot runs: `pid` leads its process group (its tree, on Windows). */
  onStarted: (pid: number) => void;
}

/** A robot under its dead-man switch. */
export interface SupervisedRobot {
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** The robot ended, or could not start. */
  readonly outcome: Promise<ProcessOutcome>;
  /** Every holder of the robot's output closed it. */
  readonly closed: Promise<void>;
  /**
   * Lets go of the switch once the robot ended: `clean` (nothing of the run is left) only ends
   * the watcher; else what is left of the tree is killed, resolving once that is done.
   */
  release(clean: boolean): Promise<void>;
  /** The agent must exit at once: no grace, no waiting. */
  killNow(): void;
}

/** Starts the robot's command line in `cwd` under a dead-man switch (see the top of this file). */
export function startRobot(options: StartRobotOptions): SupervisedRobot {
  return process.platform === 'win32' ? startWithNode(options) : startWithShell(options);
}

const onExit = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve()).once('error', () => resolve());
  });

/** A watcher started ahead of the next run, so that starting a robot costs one spawn, not two. */
let spare: ChildProcess | null = null;

type Unrefable = { ref?: () => void; unref?: () => void };

function spawnWatcher(): ChildProcess {
  const watcher = spawn('/bin/sh', ['-c', WATCH_SCRIPT, 'rota-watch'], {
    cwd: '/',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  // A watcher that is gone has nothing left to be told.
  watcher.stdin!.on('error', () => undefined);
  watcher.once('error', () => undefined);
  return watcher;
}

function takeWatcher(): ChildProcess {
  const ready = spare;
  spare = null;
  if (ready && ready.pid !== undefined && ready.exitCode === null && ready.signalCode === null) {
    ready.ref();
    (ready.stdin as Unrefable).ref?.();
    return ready;
  }
  return spawnWatcher();
}

function refillSpare(): void {
  if (spare) return;
  spare = spawnWatcher();
  // Waiting for a run that may never come must not keep the agent's process alive; when that
  // process ends, the pipe's end tells the spare there is nothing to watch.
  spare.unref();
  (spare.stdin as Unrefable).unref?.();
}

function startWithShell(options: StartRobotOptions): SupervisedRobot {
  // First, so a robot never runs unwatched: from its start on, the agent's end is seen.
  const watcher = takeWatcher();
  const watched = onExit(watcher);
  if (watcher.pid !== undefined) watcher.stdin!.write(`marker ${options.marker}\n`);
  const robot = spawn('/bin/sh', ['-c', RUN_SCRIPT, 'rota-run', options.executor], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = robot.pid;
  const outcome = new Promise<ProcessOutcome>((resolve) => {
    robot.once('error', (error) => resolve({ kind: 'error', message: error.message }));
    robot.once('exit', (code, signal) => resolve({ kind: 'exit', code, signal }));
  });
  const closed = new Promise<void>((resolve) => robot.once('close', () => resolve()));
  if (watcher.pid === undefined) {
    // No switch, no robot: it could outlive the agent.
    if (pid !== undefined) killProcessTreeNow(pid);
  } else if (pid !== undefined) {
    watcher.stdin!.write(`group ${pid}\n`);
    options.onStarted(pid);
    setImmediate(refillSpare);
  } else {
    watcher.stdin!.end('ok\n');
  }
  const finalOutcome =
    watcher.pid === undefined
      ? Promise.resolve<ProcessOutcome>({
          kind: 'error',
          message: "the run's watcher could not start",
        })
      : outcome;
  return {
    stdout: robot.stdout!,
    stderr: robot.stderr!,
    outcome: finalOutcome,
    closed,
    release(clean) {
      if (clean) {
        watcher.stdin!.end('ok\n');
        return Promise.resolve();
      }
      if (pid !== undefined) killProcessTreeNow(pid);
      watcher.stdin!.end();
      return watched;
    },
    killNow() {
      if (pid !== undefined) killProcessTreeNow(pid);
      watcher.stdin!.end();
    },
  };
}

function startWithNode(options: StartRobotOptions): SupervisedRobot {
  const config: SupervisorConfig = {
    executor: options.executor,
    cwd: options.cwd,
    marker: options.marker,
  };
  const child = spawn(process.execPath, supervisorArgs(config), {
    cwd: options.cwd,
    env: options.env,
    windowsHide: true,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let robotPid: number | undefined;
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const outcome = new Promise<ProcessOutcome>((resolve) => {
    child.on('message', (message: SupervisorMessage) => {
      if (message.type === 'started') {
        robotPid = message.pid;
        options.onStarted(message.pid);
      } else if (message.type === 'exit') {
        resolve({ kind: 'exit', code: message.code, signal: message.signal });
      } else {
        resolve({ kind: 'error', message: message.message });
      }
    });
    child.once('error', (error) => resolve({ kind: 'error', message: error.message }));
    child.once('exit', (code, signal) =>
      resolve({
        kind: 'error',
        message: `the run's supervisor ended unexpectedly (${code !== null ? `exit code ${code}` : `signal ${signal}`})`,
      }),
    );
  });
  return {
    stdout: child.stdout!,
    stderr: child.stderr!,
    outcome,
    closed,
    release() {
      if (child.connected) child.send({ type: 'cleanup' }, () => undefined);
      else if (robotPid !== undefined) killProcessTreeNow(robotPid);
      return closed;
    },
    killNow() {
      if (robotPid !== undefined) killProcessTreeNow(robotPid);
      child.kill('SIGKILL');
    },
  };
}
