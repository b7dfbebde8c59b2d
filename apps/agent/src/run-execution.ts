import { stat } from 'node:fs/promises';
import {
  BUSINESS_ERROR_EXIT_CODE,
  type AgentFinish,
  type AgentRunRef,
  type ClaimedRun,
  type RunMessageCode,
  type RunMessageParams,
} from '@rota/contract';
import { LineSplitter } from './line-splitter.js';
import { LogShipper, runMessage } from './log-shipper.js';
import { errorMessage, type Logger } from './logger.js';
import type { PackageCache } from './package-cache.js';
import { checkPackageSignature } from './package-signature.js';
import {
  isProcessGroupAlive,
  killProcessTree,
  killProcessTreeNow,
  runMarker,
} from './process-tree.js';
import type { ProtocolClient } from './protocol-client.js';
import { installPackage, runDirectoryOf } from './run-directory.js';
import { startRobot, type SupervisedRobot } from './supervisor.js';

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

/** A time limit's values: whole minutes as minutes ("1 minute", not "1 minutes"). */
function limitParams(seconds: number): RunMessageParams {
  return seconds % 60 === 0 && seconds > 0 ? { minutes: seconds / 60 } : { seconds };
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
export const LEASE_LOST_MESSAGE = runMessage('lease_lost').text;
const MAX_TIMER_MS = 2 ** 31 - 1;

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
  /** The robot under its dead-man switch (supervisor.ts). */
  private robot: SupervisedRobot | null = null;
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
      this.system('cancel_requested');
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
    this.robot?.killNow();
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
      this.system('run_failed', { reason: message.slice(0, 2000) });
      return this.result(null, message);
    } finally {
      clearTimeout(timer);
      this.settled = true;
      this.logs.flush();
    }
  }

  private async prepare(): Promise<string> {
    const { robot, package: pkg } = this.claimed;
    const { workDir, packages } = this.context;
    const dir = runDirectoryOf(workDir, robot, pkg !== null);
    if (pkg === null) return dir;

    if (!(await packages.has(pkg))) {
      this.system('downloading_package', {
        version: pkg.version,
        size: pkg.size_bytes,
        format: pkg.format,
      });
    }
    const archive = await packages.get(pkg, this.abort.signal);
    if (this.killReason) return dir;
    await checkPackageSignature(archive, pkg);
    const unpacked = await installPackage({
      archive,
      format: pkg.format,
      sha256: pkg.sha256.toLowerCase(),
      dir,
      workDir,
    });
    this.system(unpacked ? 'package_unpacked' : 'package_already_unpacked', {
      version: pkg.version,
      dir,
    });
    return dir;
  }

  private async runProcess(dir: string): Promise<AgentFinish> {
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory()) {
      const { text, message } = runMessage('workdir_missing', { dir });
      this.system(message.code, message.params);
      return this.result(null, text, message);
    }
    const { executor } = this.claimed.robot;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...this.claimed.environment,
      ROTA_API_URL: `${this.context.server}/api`,
    };
    // The agent's own credential is not the robot's business, nor where it is kept.
    delete env.ROTA_AGENT_TOKEN;
    delete env.ROTA_AGENT_TOKEN_FILE;
    delete env.CREDENTIALS_DIRECTORY;

    this.system('starting', { executor, dir });
    const { execution_id, attempt } = this.ref;
    const marker = runMarker(this.context.workDir, execution_id, attempt);
    const markerAt = marker.indexOf('=');
    env[marker.slice(0, markerAt)] = marker.slice(markerAt + 1);
    const robot = startRobot({
      executor,
      cwd: dir,
      env,
      marker,
      onStarted: (pid) => {
        this.robotPid = pid;
        // A kill asked for while the robot was starting applies now.
        if (this.killReason) this.killTree(this.graceMsFor(this.killReason));
      },
    });
    this.robot = robot;

    const stdout = new LineSplitter((line) => this.logs.push('stdout', line));
    const stderr = new LineSplitter((line) => {
      if (line.trim() !== '') this.lastStderrLine = line.trim();
      this.logs.push('stderr', line);
    });
    robot.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
    robot.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    let outputClosed = false;
    const closed = robot.closed.then(() => {
      outputClosed = true;
    });

    const outcome = await robot.outcome;
    this.processEnded = true;

    // A helper the robot left behind may still be writing: a little time, not forever. A run
    // whose output closed and whose group is empty left nothing; else what is left of it is
    // killed (a run's processes end with the run).
    const outputCloseMs = this.context.timings.outputCloseMs;
    const endedAt = Date.now();
    await this.within(closed, outputCloseMs);
    await this.waitForGroupToEnd(outputCloseMs - (Date.now() - endedAt));
    const clean =
      outputClosed &&
      this.robotPid !== undefined &&
      process.platform !== 'win32' &&
      !isProcessGroupAlive(this.robotPid);
    await this.within(robot.release(clean), outputCloseMs);
    await this.within(closed, outputCloseMs);
    robot.stdout.destroy();
    robot.stderr.destroy();
    stdout.end();
    stderr.end();

    if (outcome.kind === 'error') {
      const reason = outcome.message.slice(0, 1000);
      const { text, message } = runMessage('could_not_start', { executor, reason });
      this.system(message.code, message.params);
      return this.result(null, text, message);
    }
    const { code, signal } = outcome;
    const ended: RunMessageParams = code !== null ? { code } : { signal: String(signal) };
    this.system('process_ended', ended);
    // The robot's own last words are its text, shown as they are; else the exit status.
    if (this.lastStderrLine !== null) return this.result(code, this.lastStderrLine);
    const { text, message } = runMessage('exit_status', ended);
    return this.result(code, text, message);
  }

  /**
   * The attempt's result; `errorText` is used when the outcome is an error, with its code and
   * values when the agent wrote it (absent: the robot's own words, shown as they are).
   */
  private result(
    code: number | null,
    errorText: string | null,
    errorMessage?: { code: RunMessageCode; params: RunMessageParams },
  ): AgentFinish {
    const base = { ...this.ref, exit_code: code, ended_at: new Date().toISOString() };
    const coded = (
      status: AgentFinish['status'],
      messageCode: RunMessageCode,
      params: RunMessageParams = {},
    ): AgentFinish => {
      const { text, message } = runMessage(messageCode, params);
      return { ...base, status, message: text, ...message };
    };
    switch (this.killReason) {
      case 'timeout':
        return coded('timeout', 'timed_out', limitParams(this.claimed.timeout_seconds));
      case 'cancelled':
        return coded('cancelled', 'cancelled');
      case 'stop_requested':
        return this.killedAfterGrace
          ? coded('cancelled', 'killed_after_grace', { seconds: this.stopGraceSeconds })
          : coded('cancelled', 'stopped');
      case 'stopped':
        return coded('application_error', 'agent_stopped');
      case 'fenced':
        return coded('application_error', 'lease_lost');
      case null:
        break;
    }
    if (code === 0) return { ...base, status: 'success', message: null };
    const status = code === BUSINESS_ERROR_EXIT_CODE ? 'business_error' : 'application_error';
    if (errorText === null) {
      return code === null ? coded(status, 'failed') : coded(status, 'exit_status', { code });
    }
    return { ...base, status, message: errorText.slice(0, MAX_MESSAGE_CHARS), ...errorMessage };
  }

  private requestKill(reason: KillReason): void {
    // A run that already ended keeps its real outcome.
    if (this.killReason !== null || this.settled || this.processEnded) return;
    this.killReason = reason;
    const pid = this.robotPid;
    const line =
      reason === 'stop_requested'
        ? runMessage('stop_requested', { seconds: this.stopGraceSeconds })
        : runMessage(pid === undefined ? 'kill_requested' : 'killing_tree', {
            reason,
            ...(reason === 'timeout' ? limitParams(this.claimed.timeout_seconds) : {}),
          });
    // The kill reason's own words (without ": stopping") abort a download in progress.
    const why = line.text.replace(/: (stopping|killing the process tree)$/, '');
    this.system(line.message.code, line.message.params);
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
        this.system('grace_exceeded', { seconds: this.stopGraceSeconds });
      })
      .catch((error: unknown) =>
        this.context.logger.warn(`could not kill process tree ${pid}: ${errorMessage(error)}`),
      );
  }

  /** Until the robot's process group is empty, or `ms` passed (POSIX; Windows has none). */
  private async waitForGroupToEnd(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    const pid = this.robotPid;
    if (pid === undefined || process.platform === 'win32') return;
    while (isProcessGroupAlive(pid) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Until `promise` settles, or `ms` passed. */
  private async within(promise: Promise<unknown>, ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  /** A line of the agent's own, in English for the API and as a code for the console. */
  private system(code: RunMessageCode, params: RunMessageParams = {}): void {
    const { text, message } = runMessage(code, params);
    this.logs.push('system', text, message);
  }
}
