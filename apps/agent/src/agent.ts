import path from 'node:path';
import {
  ENGINE_TIMINGS,
  type AgentFinish,
  type AgentMode,
  type AgentRunRef,
  type AgentUpdateOffer,
  type ClaimedRun,
} from '@rota/contract';
import { Backoff, DEFAULT_BACKOFF, pause, type BackoffOptions } from './backoff.js';
import { collectFacts, modeFromEnv } from './facts.js';
import { systemClock, type Clock } from './clock.js';
import { errorMessage, type Logger } from './logger.js';
import { Outbox } from './outbox.js';
import { PackageCache } from './package-cache.js';
import { killMarkedProcesses, workDirMarker } from './process-tree.js';
import {
  ProtocolClient,
  ProtocolRejectedError,
  ProtocolResponseError,
  UnauthorizedError,
} from './protocol-client.js';
import { DEFAULT_RUN_TIMINGS, ExecutionRun, type RunTimings } from './run-execution.js';
import { ClaimPause } from './update/claim-pause.js';
import { isPackaged } from './update/packaged.js';
import type { SelfUpdater } from './update/self-update.js';

interface AgentTimings extends RunTimings {
  /** After the last robot ended on shutdown, how long results and logs may still take to send. */
  deliveryGraceMs: number;
  backoff: BackoffOptions;
  /** How often running robots are checked against their leases. */
  fenceCheckMs: number;
  /**
   * A robot is killed this long before its lease, as last renewed, runs out: the server waits
   * the lease out plus its own margin before it may hand the run on.
   */
  fenceMarginMs: number;
  /** How long a stopping agent waits for the server to take its goodbye. */
  goodbyeTimeoutMs: number;
  /** An offered update that failed (its download did not check out) is not tried again sooner. */
  updateRetryMs: number;
}

const DEFAULT_AGENT_TIMINGS: AgentTimings = {
  ...DEFAULT_RUN_TIMINGS,
  deliveryGraceMs: 5_000,
  backoff: DEFAULT_BACKOFF,
  fenceCheckMs: 500,
  fenceMarginMs: 2_000,
  goodbyeTimeoutMs: 3_000,
  updateRetryMs: 15 * 60_000,
};

export interface AgentConfig {
  /** One Rota server, or several instances of one to fail over between. */
  servers: string[];
  token: string;
  workDir: string;
  concurrency: number;
  graceSeconds: number;
  logger: Logger;
  timings?: Partial<AgentTimings>;
  /** What the heartbeat's interval and the leases are counted by; the system's by default. */
  clock?: Clock;
  /** How it was started (--mode), said in every hello; unset, ROTA_AGENT_MODE or console. */
  mode?: AgentMode;
  /** Labels declared in every hello (--labels); the server adds the OS and architecture. */
  labels?: string[];
  /** Attended: the Rota user whose own runs alone this agent takes (its hello says so). */
  attendedUser?: string;
  /** A packaged agent's means to replace itself; absent (a source checkout): offers are ignored. */
  updater?: SelfUpdater;
}

const keyOf = (ref: AgentRunRef) => `${ref.execution_id}-${ref.attempt}`;
/** The protocol's cap on a heartbeat's list. */
const MAX_HEARTBEAT_RUNS = 1000;

/**
 * The agent's loops: hello, heartbeat, one claim loop per slot, result delivery, shutdown.
 * `run()` resolves after a clean stop and rejects with UnauthorizedError on a bad token.
 */
export class Agent {
  private readonly logger: Logger;
  private readonly timings: AgentTimings;
  private readonly client: ProtocolClient;
  private readonly outbox: Outbox;
  private readonly packages: PackageCache;
  private readonly clock: Clock;

  /** Runs executing now. */
  private readonly active = new Map<string, ExecutionRun>();
  /** Results written to the outbox and not yet answered by the server. */
  private readonly undelivered = new Map<string, AgentFinish>();
  /**
   * When each running robot's lease ends by this agent's clock (`clock.now()`): counted
   * from the moment the claim's answer arrived or a heartbeat that renewed it was sent, which
   * is never later than the server's own count.
   */
  private readonly leaseEnds = new Map<string, number>();
  private leaseMs: number = ENGINE_TIMINGS.leaseSeconds * 1000;

  /** Aborted on stop: ends claiming. */
  private readonly stopping = new AbortController();
  /** Aborted when results and logs can no longer wait (shutdown deadline, bad token). */
  private readonly delivery = new AbortController();
  /** Aborted at the very end: stops the heartbeat. */
  private readonly finished = new AbortController();

  private heartbeatMs: number = ENGINE_TIMINGS.heartbeatSeconds * 1000;
  private claimWaitSeconds: number = ENGINE_TIMINGS.claimWaitSeconds;
  /** The server counts a claim's arrival as a heartbeat (hello's `claim_is_heartbeat`). */
  private claimIsHeartbeat = false;
  /** Claim long polls sent and not yet answered. */
  private claimsOpen = 0;
  private fatalError: Error | null = null;
  private greeted = false;
  private graceTimer: NodeJS.Timeout | undefined;
  private deliveryTimer: NodeJS.Timeout | undefined;
  private readonly idleWaiters: (() => void)[] = [];
  /** The stop's grace ran out: a run that still arrives (a result's answer) is stopped at once. */
  private graceOver = false;
  /** Active while an update is under way: no slot claims until it ends (a stop ends it too). */
  private readonly claimPause: ClaimPause;
  /** Offers whose update failed, by SHA-256, with when (this agent's clock). */
  private readonly failedOffers = new Map<string, number>();
  /** The new executable is in place: run() ends, and the process exits to be restarted. */
  updated = false;

  constructor(private readonly config: AgentConfig) {
    this.logger = config.logger;
    this.clock = config.clock ?? systemClock;
    this.timings = { ...DEFAULT_AGENT_TIMINGS, ...config.timings };
    this.claimPause = new ClaimPause(config.concurrency);
    this.client = new ProtocolClient({
      servers: config.servers,
      token: config.token,
      logger: config.logger,
      backoff: this.timings.backoff,
      // A claim refused while robots run: the token was replaced ("Generate new token") and the
      // old one still serves the runs already held. Finish them, then stop.
      onUnauthorized: (call) =>
        call === 'claim' && this.active.size > 0
          ? this.retire()
          : this.fail(new UnauthorizedError()),
      // "hello" is said again after every outage; the first one is run()'s own.
      onReconnect: () => {
        if (this.greeted) void this.sayHello().catch(() => undefined);
      },
      onUpdateOffer: (offer) => this.offered(offer),
    });
    this.outbox = new Outbox(path.join(config.workDir, 'outbox'), config.logger);
    this.packages = new PackageCache(
      path.join(config.workDir, 'packages'),
      this.client,
      config.logger,
      this.timings.backoff,
    );
  }

  async run(): Promise<void> {
    let heartbeat: Promise<void> = Promise.resolve();
    const fencing = setInterval(() => this.fenceExpiredRuns(), this.timings.fenceCheckMs);
    try {
      // An earlier instance of this agent that died may have left robots running here: they are
      // no longer this agent's, and the server may already have handed their runs on.
      const leftovers = await killMarkedProcesses(workDirMarker(this.config.workDir));
      if (leftovers > 0) {
        this.logger.warn(
          `killed ${leftovers} process(es) an earlier run of this agent left behind`,
        );
      }
      await this.packages.removeLeftovers();
      for (const result of await this.outbox.readAll()) {
        this.undelivered.set(keyOf(result), result);
      }
      if (this.undelivered.size > 0) {
        this.logger.info(`${this.undelivered.size} result(s) left by an earlier run to deliver`);
      }
      await this.sayHello();
      heartbeat = this.heartbeatLoop();
      // Before any claim: a restarted agent first reports what it ran before.
      for (const result of [...this.undelivered.values()]) await this.deliver(result);
      await Promise.all(Array.from({ length: this.config.concurrency }, () => this.claimLoop()));
    } catch (error) {
      if (!this.stopping.signal.aborted) throw error;
    } finally {
      // A run may still be ending if run() failed early; wait for it before the end.
      await this.whenIdle();
      clearInterval(fencing);
      if (!this.fatalError) await this.sayGoodbye();
      this.finished.abort();
      clearTimeout(this.graceTimer);
      clearTimeout(this.deliveryTimer);
      await heartbeat;
      this.client.close();
    }
    if (this.fatalError) throw this.fatalError;
    if (this.undelivered.size > 0) {
      this.logger.warn(
        `${this.undelivered.size} result(s) not delivered; kept in ${this.outbox.dir} for the next start`,
      );
    }
  }

  /**
   * SIGTERM: no more claims; running robots get `graceSeconds` to end, then are killed; results
   * are then delivered for at most `deliveryGraceMs`.
   */
  stop(): void {
    if (this.stopping.signal.aborted) return;
    this.logger.info(
      this.active.size > 0
        ? `stopping: waiting up to ${this.config.graceSeconds} s for ${this.active.size} running robot(s)`
        : 'stopping',
    );
    this.stopping.abort(new Error('the agent is stopping'));
    this.claimPause.end();
    this.graceTimer = setTimeout(() => {
      this.graceOver = true;
      for (const run of this.active.values()) run.stop();
    }, this.config.graceSeconds * 1000);
    this.checkIdle();
  }

  /** A second signal: kill every robot's tree at once; the caller exits right after. */
  killAllNow(): void {
    for (const run of this.active.values()) run.killNow();
  }

  /**
   * The token was replaced: no more claims, the running robots end on their own (no grace
   * timer) and their results are delivered, then the agent exits as for a refused token.
   */
  private retire(): void {
    if (this.fatalError || this.stopping.signal.aborted) return;
    this.fatalError = new UnauthorizedError();
    this.logger.warn(
      `the server refused a new claim with this token (it was replaced?): finishing ${this.active.size} running robot(s), then stopping`,
    );
    this.stopping.abort(new Error('the agent token was replaced'));
    this.claimPause.end();
    this.checkIdle();
  }

  private fail(error: Error): void {
    if (this.fatalError) return;
    this.fatalError = error;
    this.logger.error(error.message);
    this.stop();
    this.delivery.abort(error);
    for (const run of this.active.values()) run.stop();
  }

  /**
   * The server shows this agent inactive at once and settles what it no longer holds, rather
   * than waiting a lease out; results still undelivered stay listed (the outbox keeps them).
   */
  private async sayGoodbye(): Promise<void> {
    try {
      const released = await this.client.goodbye(
        { running: this.heldRuns() },
        this.timings.goodbyeTimeoutMs,
      );
      if (released > 0)
        this.logger.info(`the server settled ${released} run(s) left on this agent`);
    } catch (error) {
      this.logger.warn(`goodbye: ${errorMessage(error)}`);
    }
  }

  /** Kills, without grace, every robot whose lease this agent could not renew in time. */
  private fenceExpiredRuns(): void {
    const now = this.clock.now();
    for (const [key, run] of this.active) {
      const end = this.leaseEnds.get(key);
      // A short lease (tests) gets a proportionally short margin.
      const margin = Math.min(this.timings.fenceMarginMs, this.leaseMs / 4);
      if (end === undefined || now < end - margin) continue;
      this.leaseEnds.delete(key);
      this.logger.error(
        `execution ${run.ref.execution_id} attempt ${run.ref.attempt}: its lease could not be renewed; stopping the robot before the server hands the run on`,
      );
      run.fence();
    }
  }

  private async sayHello(): Promise<void> {
    const facts = await collectFacts(this.config.workDir, this.config.mode ?? modeFromEnv());
    const answer = await this.client.hello(
      {
        ...facts,
        packaged: isPackaged(),
        ...(this.config.labels?.length ? { labels: this.config.labels } : {}),
        ...(this.config.attendedUser ? { attended_user: this.config.attendedUser } : {}),
      },
      this.stopping.signal,
    );
    this.heartbeatMs = Math.max(1, answer.heartbeat_seconds) * 1000;
    this.leaseMs = Math.max(1, answer.lease_seconds) * 1000;
    this.claimIsHeartbeat = answer.claim_is_heartbeat === true;
    this.claimWaitSeconds = Math.min(25, Math.max(0, answer.claim_wait_seconds));
    // Each claim then stands for a heartbeat: it must arrive as often as one would.
    if (this.claimIsHeartbeat)
      this.claimWaitSeconds = Math.min(
        this.claimWaitSeconds,
        Math.max(1, answer.heartbeat_seconds),
      );
    this.greeted = true;
    this.logger.info(`connected to ${this.client.server} as agent "${answer.name}"`);
    // A new executable's first hello went through: its update is over.
    await this.config.updater
      ?.confirm()
      .catch((error: unknown) => this.logger.warn(`update: ${errorMessage(error)}`));
  }

  /** Runs executing and results not yet delivered: the server keeps their leases. */
  private heldRuns(): AgentRunRef[] {
    const refs = new Map<string, AgentRunRef>();
    for (const [key, run] of this.active) refs.set(key, run.ref);
    for (const [key, result] of this.undelivered) {
      refs.set(key, { execution_id: result.execution_id, attempt: result.attempt });
    }
    return [...refs.values()].slice(0, MAX_HEARTBEAT_RUNS);
  }

  private async heartbeatLoop(): Promise<void> {
    const signal = this.finished.signal;
    while (!signal.aborted) {
      if (this.claimStandsForHeartbeat()) {
        await this.untilNextHeartbeat(signal);
        continue;
      }
      try {
        // What the attempt that got through listed, and when it left: that is what it renewed.
        let sent: { at: number; runs: AgentRunRef[] } = { at: 0, runs: [] };
        const { cancel, stop } = await this.client.heartbeat(() => {
          sent = { at: this.clock.now(), runs: this.heldRuns() };
          return { running: sent.runs };
        }, signal);
        // A graceful stop keeps the lease (the run is still this agent's while its robot ends).
        const graces = new Map(stop.map((s) => [s.execution_id, s.grace_seconds]));
        for (const ref of sent.runs) {
          const key = keyOf(ref);
          const renewed = !cancel.includes(ref.execution_id) || graces.has(ref.execution_id);
          if (this.leaseEnds.has(key) && renewed) {
            this.leaseEnds.set(key, sent.at + this.leaseMs);
          }
        }
        for (const run of this.active.values()) {
          if (cancel.includes(run.ref.execution_id)) run.cancel(graces.get(run.ref.execution_id));
        }
      } catch (error) {
        if (signal.aborted || error instanceof UnauthorizedError) return;
        this.logger.warn(`heartbeat: ${errorMessage(error)}`);
      }
      await this.untilNextHeartbeat(signal);
    }
  }

  /** One heartbeat interval by the agent's clock; cut short (without throwing) by `signal`. */
  private async untilNextHeartbeat(signal: AbortSignal): Promise<void> {
    await this.clock.sleep(this.heartbeatMs, signal).catch(() => undefined);
  }

  /**
   * An idle agent whose claim long poll is open need not heartbeat: the server heard the claim
   * arrive, and the next one arrives within a heartbeat interval (its wait is capped to one).
   * It heartbeats again as soon as it holds a run (leases to renew, cancels to hear) or a call
   * failed (the claim may be stuck retrying while a heartbeat could get through).
   */
  private claimStandsForHeartbeat(): boolean {
    return (
      this.claimIsHeartbeat &&
      this.claimsOpen > 0 &&
      this.client.reachable &&
      this.heldRuns().length === 0
    );
  }

  private async claimLoop(): Promise<void> {
    const signal = this.stopping.signal;
    const backoff = new Backoff(this.timings.backoff);
    while (!signal.aborted) {
      if (this.claimPause.active) {
        await this.claimPause.hold();
        continue;
      }
      let claimed: ClaimedRun | null;
      try {
        claimed = await this.claim(signal);
        backoff.reset();
      } catch (error) {
        if (signal.aborted) return;
        // The server refused the claim (agent disabled…): ask again later, without spinning.
        this.logger.warn(`claim: ${errorMessage(error)}`);
        await pause(backoff.nextDelayMs(), signal);
        continue;
      }
      // Each result asks for this slot's next run in the same request (one round trip less
      // per run while there is work); without one, the slot claims again.
      while (claimed) claimed = await this.handleRun(claimed);
    }
  }

  private async claim(signal: AbortSignal): Promise<ClaimedRun | null> {
    // fetch's pool hands a request the first connection it sees free, and the one the last
    // answer came on is seen free only a tick after that answer was read: claiming at once
    // alternated an idle agent's claims over two connections and kept both open.
    // Over HTTP only: on the server's stream every claim goes on its one WebSocket.
    if (!this.client.streaming) await new Promise((resolve) => setImmediate(resolve));
    this.claimsOpen += 1;
    try {
      return await this.client.claim({ wait_seconds: this.claimWaitSeconds }, signal);
    } finally {
      this.claimsOpen -= 1;
    }
  }

  /** Runs it, delivers its result, and answers the next run the server sent back, if any. */
  private async handleRun(claimed: ClaimedRun): Promise<ClaimedRun | null> {
    const { execution_id: id, attempt } = claimed;
    this.logger.info(
      `execution ${id} attempt ${attempt}: running robot "${claimed.robot.name}" (\`${claimed.robot.executor}\`)`,
    );
    const run = new ExecutionRun(claimed, {
      server: this.client.server,
      workDir: this.config.workDir,
      client: this.client,
      packages: this.packages,
      logger: this.logger,
      deliverySignal: this.delivery.signal,
      timings: this.timings,
    });
    const key = keyOf(run.ref);
    this.active.set(key, run);
    this.leaseEnds.set(key, this.clock.now() + this.leaseMs);
    // Asked for before a stop began, answered after its grace: it ends now, as the others did.
    if (this.graceOver) run.stop();
    let result: AgentFinish;
    try {
      result = await run.execute();
      this.logger.info(
        `execution ${id} attempt ${attempt}: ${result.status}${result.message ? ` (${result.message})` : ''}`,
      );
      // On disk before anything is sent: from here on the result survives a crash or a restart.
      this.undelivered.set(key, result);
      await this.outbox
        .write(result)
        .catch((error: unknown) =>
          this.logger.error(`outbox: could not save ${key}: ${errorMessage(error)}`),
        );
    } finally {
      this.active.delete(key);
      this.leaseEnds.delete(key);
      this.checkIdle();
    }
    await run.logs.drain();
    return this.deliver(result, true);
  }

  /**
   * Sends a result until the server answers; any answer but a retryable one is final. With
   * `askNext` (a slot that is free now) and while not stopping, the same request asks for the
   * slot's next run (wait 0: the answer is not held), which is returned.
   */
  private async deliver(result: AgentFinish, askNext = false): Promise<ClaimedRun | null> {
    const key = keyOf(result);
    let next: ClaimedRun | null = null;
    try {
      const ask = askNext && !this.stopping.signal.aborted && !this.claimPause.active;
      const answer = await this.client.finish(
        ask ? { ...result, claim: { wait_seconds: 0, max: 1 } } : result,
        this.delivery.signal,
      );
      next = answer.runs?.[0] ?? null;
      const { accepted } = answer;
      if (!accepted) {
        this.logger.info(
          `execution ${result.execution_id} attempt ${result.attempt}: result not taken (already recorded or attempt superseded)`,
        );
      }
    } catch (error) {
      if (error instanceof ProtocolRejectedError && error.status === 409) {
        // The server had already settled this attempt (its lease ran out): it recorded the
        // result on the attempt as a late one, without applying it.
        this.logger.warn(`${errorMessage(error)}; result of ${key} recorded as late`);
      } else if (error instanceof ProtocolRejectedError) {
        this.logger.error(`${errorMessage(error)}; result of ${key} dropped`);
      } else if (!(error instanceof ProtocolResponseError)) {
        // Aborted or bad token: the outbox keeps it for the next start.
        return null;
      }
    }
    this.undelivered.delete(key);
    await this.outbox
      .remove(result)
      .catch((error: unknown) =>
        this.logger.error(`outbox: could not remove ${key}: ${errorMessage(error)}`),
      );
    return next;
  }

  /**
   * An update offered (in a hello's, heartbeat's or empty claim's answer): between runs, once
   * every slot stopped claiming and its run ended and was reported, the new executable is
   * fetched and put in place, and the agent stops so its service manager starts it. A failed
   * update goes back to claiming and leaves that offer alone for a while.
   */
  private offered(offer: AgentUpdateOffer): void {
    const updater = this.config.updater;
    if (!updater || this.claimPause.active || this.updated || this.stopping.signal.aborted) return;
    const failedAt = this.failedOffers.get(offer.sha256);
    if (failedAt !== undefined && this.clock.now() - failedAt < this.timings.updateRetryMs) return;
    void this.update(updater, offer);
  }

  private async update(updater: SelfUpdater, offer: AgentUpdateOffer): Promise<void> {
    this.claimPause.begin();
    this.logger.info(
      `update to ${offer.version} offered: no new runs; ${this.active.size} running robot(s) finish first`,
    );
    try {
      await this.claimPause.allHeld(this.stopping.signal);
      if (this.stopping.signal.aborted) return;
      await updater.install(
        offer,
        (p, signal) => this.client.download(p, signal),
        this.stopping.signal,
      );
      this.updated = true;
      this.logger.info(
        `update to ${offer.version}: stopping, to be started again by the service manager`,
      );
      this.stopping.abort(new Error('the agent updated itself'));
      this.checkIdle();
    } catch (error) {
      if (this.stopping.signal.aborted) return;
      this.failedOffers.set(offer.sha256, this.clock.now());
      this.logger.error(
        `update to ${offer.version} failed: ${errorMessage(error)}; claiming again`,
      );
    } finally {
      this.claimPause.end();
    }
  }

  /** On shutdown, once no robot runs any more, the delivery deadline starts. */
  private checkIdle(): void {
    if (this.active.size > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
    if (!this.stopping.signal.aborted || this.deliveryTimer) return;
    clearTimeout(this.graceTimer);
    this.deliveryTimer = setTimeout(
      () => this.delivery.abort(new Error('delivery deadline')),
      this.timings.deliveryGraceMs,
    );
  }

  private whenIdle(): Promise<void> {
    if (this.active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
