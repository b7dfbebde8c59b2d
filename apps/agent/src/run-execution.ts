import { spawn, type ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import {
  BUSINESS_ERROR_EXIT_CODE,
  type AgentFinish,
  type AgentRunRef,
  type ClaimedRun,
} from '@rota/contract';
import { LineSplitter } from './line-splitter.js';
import { LogShipper } from './log-shipper.js';
import { errorMessage, type Logger } from './logger.js';
import type { PackageCache } from './package-cache.js';
import {
  isProcessGroupAlive,
  killProcessTree,
  killProcessTreeNow,
  runMarker,
} from './process-tree.js';
import type { ProtocolClient } from './protocol-client.js';
import { installPackage, runDirectoryOf } from './run-directory.js';
import { SUPERVISOR_SOURCE, type SupervisorConfig, type SupervisorMessage } from './supervisor.js';

/** `stop_requested`: the console asked for a graceful stop (SIGTERM, then the kill). */
type KillReason = 'timeout' | 'cancelled' | 'stop_requested' | 'stopped' | 'fenced';

export interface RunTimings {
  /** SIGTERM → SIGKILL delay when killing a robot's process tree. */
  killGraceMs: number;
  logFlushMs: number;
  logIdleFlushMs: number;
  maxPendingLines: number;
  /** After the robot exited, how long its output may still take to arrive (pipes held open). */
  outputCloseMs: number;
  /** Length of a minute of the run's time limit; only tests change it. */
  minuteMs: number;
}

function timeoutMessage(seconds: number): string {
  return seconds % 60 === 0
    ? `timed out after ${seconds / 60} minutes`
    : `timed out after ${seconds} s`;
}

export const DEFAULT_RUN_TIMINGS: RunTimings = {
  killGraceMs: 5_000,
  logFlushMs: 500,
  logIdleFlushMs: 3_000,
  maxPendingLines: 20_000,
  outputCloseMs: 2_000,
  minuteMs: 60_000,
};

interface RunContext {
  /** Server origin; the robot gets `<server>/api` as ROTA_API_URL. */
  server: string;
  workDir: string;
  client: Pick<ProtocolClient, 'logs'>;
  packages: PackageCache;
  logger: Logger;
  /** Aborted when the agent gives up delivering (shutdown deadline, bad token). */
  deliverySignal: AbortSignal;
  timings: RunTimings;
}

const MAX_MESSAGE_CHARS = 2_000;
/** The result of a run the agent itself stopped because its lease could not be renewed. */
export const LEASE_LOST_MESSAGE = 'lease lost: stopped by the agent';
const MAX_TIMER_MS = 2 ** 31 - 1;

type ProcessOutcome =
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'error'; message: string };

/**
 * One attempt of one execution on this VM: package, unpack, process, output, result. The result
 * is returned, never thrown; delivering it is the agent's job.
 */
export class ExecutionRun {
  readonly ref: AgentRunRef;
  readonly logs: LogShipper;
  private killReason: KillReason | null = null;
  /** A graceful stop's grace, and whether its robot outlived it (its tree was killed). */
  private stopGraceSeconds = 0;
  private killedAfterGrace = false;
  private readonly abort = new AbortController();
  /** The supervisor (supervisor.ts) that holds the robot's tree. */
  private child: ChildProcess | null = null;
  /** The robot's own pid, leader of its process group. */
  private robotPid: number | undefined;
  private processEnded = false;
  private settled = false;
  private lastStderrLine: string | null = null;

  constructor(
    readonly claimed: ClaimedRun,
    private readonly context: RunContext,
  ) {
    this.ref = { execution_id: claimed.execution_id, attempt: claimed.attempt };
    this.logs = new LogShipper({
      ref: this.ref,
      send: (batch, signal) => context.client.logs(batch, signal),
      onCancel: (graceSeconds) => this.cancel(graceSeconds),
      signal: context.deliverySignal,
      logger: context.logger,
      flushMs: context.timings.logFlushMs,
      idleFlushMs: context.timings.logIdleFlushMs,
      maxPending: context.timings.maxPendingLines,
    });
  }

  /**
   * The console cancelled the run, or it is no longer this agent's. With `graceSeconds` the
   * console asked for a graceful stop: SIGTERM (CTRL_BREAK-like on Windows), and the tree killed
   * when the grace ends; the run ends `cancelled`, "stopped" or "killed after N s". A plain
   * cancel during that grace kills at once.
   */
  cancel(graceSeconds?: number): void {
    if (graceSeconds !== undefined && graceSeconds > 0) {
      if (this.killReason !== null) return;
      this.stopGraceSeconds = graceSeconds;
      this.requestKill('stop_requested');
      return;
    }
    if (this.killReason === 'stop_requested' && !this.processEnded) {
      this.killReason = 'cancelled';
      this.system('cancel requested: killing the process tree now');
      this.killTree(0);
      return;
    }
    this.requestKill('cancelled');
  }

  /** The agent is stopping and the grace period is over. */
  stop(): void {
    this.requestKill('stopped');
  }

  /**
   * The agent could not renew this run's lease in time: the server may soon hand the run to
   * another agent, so the robot must be gone before that (no grace).
   */
  fence(): void {
    this.requestKill('fenced');
  }

  /** The agent must exit at once: SIGKILL, no grace, no waiting. */
  killNow(): void {
    if (this.robotPid !== undefined && !this.processEnded) killProcessTreeNow(this.robotPid);
    this.child?.kill('SIGKILL');
  }

  async execute(): Promise<AgentFinish> {
    const seconds = this.claimed.timeout_seconds;
    const timer = setTimeout(
      () => this.requestKill('timeout'),
      Math.min((Math.max(seconds, 0) * this.context.timings.minuteMs) / 60, MAX_TIMER_MS),
    );
    // Sent from the start, so a cancel during a long download already gets through.
    this.logs.start();
    try {
      const dir = await this.prepare();
      if (this.killReason) return this.result(null, null);
      return await this.runProcess(dir);
    } catch (error) {
      if (this.killReason) return this.result(null, null);
      const message = errorMessage(error);
      this.system(`run failed: ${message}`);
      return this.result(null, message);
    } finally {
      clearTimeout(timer);
      this.settled = true;
    }
  }

  private async prepare(): Promise<string> {
    const { robot, package: pkg } = this.claimed;
    const { workDir, packages } = this.context;
    const dir = runDirectoryOf(workDir, robot, pkg !== null);
    if (pkg === null) return dir;

    if (!(await packages.has(pkg))) {
      this.system(`downloading package ${pkg.version} (${pkg.size_bytes} bytes, ${pkg.format})`);
    }
    const archive = await packages.get(pkg, this.abort.signal);
    if (this.killReason) return dir;
    const unpacked = await installPackage({
      archive,
      format: pkg.format,
      sha256: pkg.sha256.toLowerCase(),
      dir,
      workDir,
    });
    this.system(
      unpacked
        ? `unpacked package ${pkg.version} into ${dir}`
        : `package ${pkg.version} already unpacked in ${dir}`,
    );
    return dir;
  }

  private async runProcess(dir: string): Promise<AgentFinish> {
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory()) {
      const message = `the working directory ${dir} does not exist`;
      this.system(message);
      return this.result(null, message);
    }
    const { executor } = this.claimed.robot;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...this.claimed.environment,
      ROTA_API_URL: `${this.context.server}/api`,
    };
    // The agent's own credential is not the robot's business.
    delete env.ROTA_AGENT_TOKEN;

    this.system(`starting \`${executor}\` in ${dir}`);
    const { execution_id, attempt } = this.ref;
    const marker = runMarker(this.context.workDir, execution_id, attempt);
    const markerAt = marker.indexOf('=');
    env[marker.slice(0, markerAt)] = marker.slice(markerAt + 1);
    const config: SupervisorConfig = { executor, cwd: dir, marker };
    // The supervisor holds the robot's tree and kills it if this process dies (supervisor.ts).
    const child = spawn(process.execPath, ['-e', SUPERVISOR_SOURCE, JSON.stringify(config)], {
      cwd: dir,
      env,
      windowsHide: true,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child = child;

    const stdout = new LineSplitter((line) => this.logs.push('stdout', line));
    const stderr = new LineSplitter((line) => {
      if (line.trim() !== '') this.lastStderrLine = line.trim();
      this.logs.push('stderr', line);
    });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));

    const outcome = await new Promise<ProcessOutcome>((resolve) => {
      child.on('message', (message: SupervisorMessage) => {
        if (message.type === 'started') {
          this.robotPid = message.pid;
          // A kill asked for while the robot was starting applies now.
          if (this.killReason) this.killTree(this.graceMsFor(this.killReason));
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
    this.processEnded = true;

    // A helper the robot left behind may still be writing: a little time, not forever; then
    // the supervisor ends what is left of the tree (a run's processes end with the run).
    await this.waitForGroupToEnd(this.context.timings.outputCloseMs);
    if (child.connected) child.send({ type: 'cleanup' }, () => undefined);
    else if (this.robotPid !== undefined) killProcessTreeNow(this.robotPid);
    let closeTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      closed,
      new Promise(
        (resolve) => (closeTimer = setTimeout(resolve, this.context.timings.outputCloseMs)),
      ),
    ]);
    clearTimeout(closeTimer);
    child.kill('SIGKILL');
    child.stdout!.destroy();
    child.stderr!.destroy();
    stdout.end();
    stderr.end();

    if (outcome.kind === 'error') {
      const message = `could not start \`${executor}\`: ${outcome.message}`;
      this.system(message);
      return this.result(null, message);
    }
    const { code, signal } = outcome;
    this.system(
      code !== null ? `process exited with code ${code}` : `process ended by signal ${signal}`,
    );
    const fallback = code !== null ? `exit code ${code}` : `killed by signal ${signal}`;
    return this.result(code, this.lastStderrLine ?? fallback);
  }

  /** The attempt's result; `errorMessage` is used when the outcome is an error. */
  private result(code: number | null, errorText: string | null): AgentFinish {
    const base = { ...this.ref, exit_code: code, ended_at: new Date().toISOString() };
    const limit = (text: string) => text.slice(0, MAX_MESSAGE_CHARS);
    switch (this.killReason) {
      case 'timeout':
        return {
          ...base,
          status: 'timeout',
          message: timeoutMessage(this.claimed.timeout_seconds),
        };
      case 'cancelled':
        return { ...base, status: 'cancelled', message: 'cancelled' };
      case 'stop_requested':
        return {
          ...base,
          status: 'cancelled',
          message: this.killedAfterGrace ? `killed after ${this.stopGraceSeconds} s` : 'stopped',
        };
      case 'stopped':
        return { ...base, status: 'application_error', message: 'agent stopped' };
      case 'fenced':
        return { ...base, status: 'application_error', message: LEASE_LOST_MESSAGE };
      case null:
        break;
    }
    if (code === 0) return { ...base, status: 'success', message: null };
    const message = limit(errorText ?? (code === null ? 'failed' : `exit code ${code}`));
    if (code === BUSINESS_ERROR_EXIT_CODE) return { ...base, status: 'business_error', message };
    return { ...base, status: 'application_error', message };
  }

  private requestKill(reason: KillReason): void {
    // A run that already ended keeps its real outcome.
    if (this.killReason !== null || this.settled || this.processEnded) return;
    this.killReason = reason;
    const why = {
      timeout: timeoutMessage(this.claimed.timeout_seconds),
      cancelled: 'cancel requested',
      stop_requested: `stop requested: SIGTERM, then the kill after ${this.stopGraceSeconds} s`,
      stopped: 'the agent is stopping',
      fenced: 'the server could not be reached to renew the lease',
    }[reason];
    const pid = this.robotPid;
    this.system(
      pid === undefined
        ? `${why}: stopping`
        : reason === 'stop_requested'
          ? why
          : `${why}: killing the process tree`,
    );
    this.abort.abort(new Error(why));
    this.killTree(this.graceMsFor(reason));
  }

  private graceMsFor(reason: KillReason): number {
    // A cancel is the console's "Kill now": no grace (a stop is the polite way, with one).
    if (reason === 'fenced' || reason === 'cancelled') return 0;
    if (reason === 'stop_requested') return this.stopGraceSeconds * 1000;
    return this.context.timings.killGraceMs;
  }

  private killTree(graceMs: number): void {
    const pid = this.robotPid;
    if (pid === undefined) return;
    if (graceMs === 0) {
      killProcessTreeNow(pid);
      return;
    }
    const graceful = this.killReason === 'stop_requested';
    killProcessTree(pid, { graceMs, politeOnWindows: graceful })
      .then((killed) => {
        if (!graceful || !killed || this.killReason !== 'stop_requested') return;
        this.killedAfterGrace = true;
        this.system(`the robot outlived its ${this.stopGraceSeconds} s grace: tree killed`);
      })
      .catch((error: unknown) =>
        this.context.logger.warn(`could not kill process tree ${pid}: ${errorMessage(error)}`),
      );
  }

  /** Until the robot's process group is empty, or `ms` passed (POSIX; Windows just waits). */
  private async waitForGroupToEnd(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    const pid = this.robotPid;
    if (pid === undefined) return;
    while (Date.now() < deadline) {
      if (process.platform !== 'win32' && !isProcessGroupAlive(pid)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private system(line: string): void {
    this.logs.push('system', line);
  }
}
