import { createRequire } from 'node:module';
import { isSea } from 'node:sea';

/**
 * The dead-man switch between the agent and one robot. The agent starts this small program
 * (`node -e`), connected by an IPC channel; it starts the robot in a process group of its own and
 * reports the robot's pid and exit. When the channel closes — the agent exited, crashed or was
 * killed with SIGKILL, when no code of the agent's can run any more — the kernel closes the
 * pipe, and the supervisor kills the robot's whole tree: its process group, and on Linux every
 * process still carrying the run's marker in its environment (which also finds a helper that
 * left the group with setsid). So a robot never outlives its agent, and the server may hand the
 * run to another agent without two copies of it running at once.
 *
 * It is plain JavaScript in a string so the same source runs whether the agent is the built
 * dist or its TypeScript under a test runner; `test/supervisor.test.ts` exercises it.
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

/** Arguments of `node -e SUPERVISOR_SOURCE <config>`. */
export interface SupervisorConfig {
  executor: string;
  cwd: string;
  /** `NAME=value` present in the robot's environment, found again through /proc on Linux. */
  marker: string;
}
