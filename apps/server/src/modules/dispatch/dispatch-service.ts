import {
  AGENT_PROTOCOL_BASE,
  ENGINE_TIMINGS,
  type AgentFinish,
  type AgentGoodbye,
  type AgentHeartbeat,
  type AgentHello,
  type AgentLogBatch,
  type ClaimedRun,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import { systemScope } from '../../lib/tenant-scope.js';
import { TtlCache } from '../../lib/ttl-cache.js';
import { generateToken, hashToken } from '../../lib/tokens.js';
import type { ParameterService } from '../parameters/service.js';
import { ClaimWaiters, type WorkSignal } from './claim-waiters.js';
import { EmptyQueues } from './empty-queues.js';
import { clientHasPackage } from './package-lookup-repository.js';
import type {
  AgentFacts,
  AgentIdentity,
  AgentPresenceService,
} from '../agents/presence-service.js';
import { cancelQueued, findExecutionForLogs, insertLogLines, requestCancel, requestStop, vmIdsOfExecution } from '../executions/run-statements.js';
import { claimRuns, hasQueuedRuns, releaseClaim } from '../executions/claim-statements.js';
import { finishAndClaimRuns } from '../executions/finish-claim-statements.js';
import { type ClaimedRow, type NewExecution } from '../executions/row-statements.js';
import { settleAttempt, lockExecution, finishCurrentAttempt, recordLateResult, settleAbandoned, type AttemptResult, type Settled } from '../executions/settle-statements.js';
import { lockRunsLeftOn, renewLeases } from '../executions/lease-statements.js';
import type { EnginePublisher } from './live-events.js';
import { FinishClaimBatcher, type BatcherLog } from './finish-claim-batcher.js';

/** `count` fresh run tokens, by their hash (the database keeps only the hash). */
function newRunTokens(count: number): Map<string, string> {
  const tokenByHash = new Map<string, string>();
  for (let i = 0; i < count; i += 1) {
    const runToken = generateToken();
    tokenByHash.set(hashToken(runToken), runToken);
  }
  return tokenByHash;
}

/** The agent a protocol request speaks for (resolved from its token). */

/** A run just queued, as the statements that insert runs answer it. */
export interface QueuedRun {
  id: number;
  client: number;
  robot: number;
  vm_ids: number[] | null;
}
export type { AgentIdentity };

/** Longest line kept in the log; the agent cuts too, this guards the table. */
const MAX_LINE = 8000;

export interface DispatchTimings {
  leaseSeconds: number;
  heartbeatSeconds: number;
  claimWaitSeconds: number;
  /**
   * How long past a lease the server still waits before it hands the run on: the agent kills
   * its robot when it cannot renew (fencing), and that must be over first.
   */
  reapMarginSeconds: number;
}

/** The engine's timings for a lease (heartbeats come three times per lease). */
export function dispatchTimingsFor(leaseSeconds: number): DispatchTimings {
  return {
    leaseSeconds,
    heartbeatSeconds: Math.max(1, Math.floor(leaseSeconds / 3)),
    claimWaitSeconds: ENGINE_TIMINGS.claimWaitSeconds,
    reapMarginSeconds: Math.max(2, Math.ceil(leaseSeconds / 3)),
  };
}

/**
 * Queues runs and hands them to agents: claims with leases, heartbeats that renew
 * them, logs, results that are counted once, cancels. Every state change is one transaction
 * on the execution row; the database is the only thing instances share.
 */
export class DispatchService {
  readonly waiters = new ClaimWaiters();
  private readonly emptyQueues = new EmptyQueues();
  /**
   * An agent's identity by token hash, for every call it makes (a heartbeat every 10 s, claims,
   * results). It lives 5 minutes: a rotated or deleted agent is dropped at once on every
   * instance (`forgetAgents`, through NOTIFY), and the whole cache when NOTIFY may have lost
   * something (`notifyGap`); while the LISTEN connection is down, entries live 5 s at most.
   * Unknown tokens are never cached; 50,000 entries at most (oldest out first).
   */
  private readonly agentsByToken = new TtlCache<string, AgentIdentity>(5 * 60_000, 50_000);
  private listening = true;
  private readonly finishClaims: FinishClaimBatcher;

  constructor(
    private readonly db: Db,
    private readonly parameters: ParameterService,
    private readonly presence: AgentPresenceService,
    private readonly publish: EnginePublisher,
    readonly timings: DispatchTimings = dispatchTimingsFor(ENGINE_TIMINGS.leaseSeconds),
    /** A scheduling's run ended for good (its slot is free: the queue trigger re-checks). */
    private readonly onSchedulingRunEnded: (robotId: number) => void = () => {},
    /** A first attempt was claimed after waiting this long in the queue (/metrics). */
    private readonly onClaimed: (waitedSeconds: number) => void = () => {},
    log?: BatcherLog,
  ) {
    this.finishClaims = new FinishClaimBatcher(db, timings.leaseSeconds, log);
  }

  /**
   * An agent's token changed or the agent is gone, here or on another instance (NOTIFY): its
   * cached identity goes at once, so the old token stops working at the next call.
   */
  forgetAgents(agentIds: number[]) {
    const ids = new Set(agentIds);
    this.agentsByToken.deleteWhere((identity) => ids.has(identity.rota_nodes_id));
  }

  /**
   * NOTIFY's connection dropped (`listening` false) or listens again (true): a change made
   * meanwhile on another instance was never heard, so every cached identity goes.
   */
  notifyGap(listening: boolean) {
    this.listening = listening;
    this.agentsByToken.clear();
    this.emptyQueues.listening(listening);
  }

  /** Wake-ups from any instance (NOTIFY) reach this instance's waiting agents. */
  onWork(signal: WorkSignal) {
    this.emptyQueues.queued(signal.c);
    this.waiters.signal(signal);
  }

  /** A run was committed to the queue: agents (here and elsewhere) and consoles hear of it. */
  queued(run: NewExecution, id: number) {
    this.queuedRuns([
      { id, client: run.rota_clients_id, robot: run.rota_robots_id, vm_ids: run.vm_ids },
    ]);
  }

  /** Runs the scheduler or a queue trigger committed: each heard of as `queued` is. */
  queuedRuns(runs: readonly QueuedRun[]) {
    for (const run of runs) {
      this.announceQueued(run.client, run.vm_ids, 1);
      this.publish.live(run.client, {
        type: 'execution',
        execution_id: run.id,
        rota_robots_id: run.robot,
        status: 'queued',
      });
    }
  }

  announceQueued(clientId: number, vmIds: number[] | null, count: number) {
    const signal: WorkSignal = { c: clientId, v: vmIds, n: count };
    // This instance's agents at once; the others through NOTIFY (this one ignores its echo).
    this.emptyQueues.queued(clientId);
    this.waiters.signal(signal);
    this.publish.work(signal);
  }

  async authenticate(token: string): Promise<AgentIdentity> {
    const tokenHash = hashToken(token);
    const cached = this.agentsByToken.get(tokenHash);
    if (cached) return cached;
    const agent = await this.presence.identify(tokenHash);
    if (!agent) throw new AppError('unauthorized');
    this.agentsByToken.set(tokenHash, agent, this.listening ? undefined : 5000);
    return agent;
  }

  async hello(agent: AgentIdentity, hello: AgentHello) {
    await this.touch(agent, { hostname: hello.hostname, version: hello.version, os: hello.os });
    return {
      rota_nodes_id: agent.rota_nodes_id,
      name: agent.name,
      rota_vms_id: agent.rota_vms_id,
      heartbeat_seconds: this.timings.heartbeatSeconds,
      lease_seconds: this.timings.leaseSeconds,
      claim_wait_seconds: this.timings.claimWaitSeconds,
      claim_is_heartbeat: true,
      stream: true,
    };
  }

  async heartbeat(
    agent: AgentIdentity,
    beat: AgentHeartbeat,
  ): Promise<{ cancel: number[]; stop: { execution_id: number; grace_seconds: number }[] }> {
    await this.touch(agent);
    const ids = beat.running.map((r) => r.execution_id);
    const held = await renewLeases(this.db, agent.rota_nodes_id, ids, this.timings.leaseSeconds);
    const current = new Map(held.map((h) => [h.id, h]));
    // Stop what was cancelled, and what is no longer this agent's (its lease ran out and the
    // run went to another agent) — unless it already finished and only its result is pending.
    const cancel = beat.running
      .filter((r) => {
        const h = current.get(r.execution_id);
        return h ? h.cancel || h.attempts !== r.attempt : false;
      })
      .map((r) => r.execution_id)
      .concat(ids.filter((id) => !current.has(id)));
    // A graceful stop is listed in both: an agent that knows no `stop` still kills the run.
    const stop = beat.running.flatMap((r) => {
      const h = current.get(r.execution_id);
      return h && h.attempts === r.attempt && h.stop_grace !== null && h.stop_grace > 0
        ? [{ execution_id: r.execution_id, grace_seconds: h.stop_grace }]
        : [];
    });
    return { cancel, stop };
  }

  /**
   * A clean stop: the agent is inactive at once, and runs still on it that it no longer holds
   * (it would have listed their results) are settled now as "agent stopped", retried while
   * retries remain, instead of waiting a lease out.
   */
  async goodbye(agent: AgentIdentity, goodbye: AgentGoodbye): Promise<number> {
    const held = goodbye.running.map((r) => r.execution_id);
    const settled = await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const left = await lockRunsLeftOn(tx, agent.rota_nodes_id, held);
      const out = await settleAbandoned(tx, left, 'agent_stopped');
      await this.presence.signedOff(tx, agent.rota_nodes_id);
      return out;
    });
    for (const s of settled) this.afterSettle(s);
    this.publish.live(agent.rota_clients_id, {
      type: 'agent',
      rota_nodes_id: agent.rota_nodes_id,
      connectivity: 'inactive',
    });
    return settled.length;
  }

  /**
   * The answer to a claim could not be delivered (the agent hung up): the run goes back to the
   * queue untouched, and another agent is woken for it.
   */
  async giveBack(agent: AgentIdentity, run: ClaimedRun): Promise<void> {
    if (!(await releaseClaim(this.db, agent.rota_nodes_id, run.execution_id, run.attempt))) return;
    this.publish.live(agent.rota_clients_id, {
      type: 'execution',
      execution_id: run.execution_id,
      rota_robots_id: run.robot.rota_robots_id,
      status: 'queued',
    });
    await this.wakeForQueued(agent.rota_clients_id, run.execution_id);
  }

  /** Every run of an answer that could not be delivered (giveBack, each). */
  async giveBackAll(agent: AgentIdentity, runs: ClaimedRun[]): Promise<void> {
    await Promise.all(runs.map((run) => this.giveBack(agent, run)));
  }

  /**
   * Last seen now. A heartbeat only tells the presence service, which writes once a second and
   * announces comebacks itself; a hello writes at once and announces the agent when it comes
   * back (connectivity turns active).
   */
  private async touch(agent: AgentIdentity, facts?: AgentFacts) {
    if (!facts) {
      this.presence.heard(agent.rota_nodes_id, agent.rota_clients_id);
      return;
    }
    if (await this.presence.seen(agent.rota_nodes_id, facts)) {
      this.publish.live(agent.rota_clients_id, {
        type: 'agent',
        rota_nodes_id: agent.rota_nodes_id,
        connectivity: 'active',
      });
    }
  }

  /**
   * Long poll: up to `max` runs for this agent's VM as soon as there is one (it does not wait
   * to fill `max`), or none after `waitSeconds`. `signal` aborts the wait when the agent hangs up.
   */
  async claimMany(
    agent: AgentIdentity,
    waitSeconds: number,
    max: number,
    signal?: AbortSignal,
  ): Promise<ClaimedRun[]> {
    // A claim arriving is a sign of life like a heartbeat (`claim_is_heartbeat`): an idle agent
    // claims every heartbeat interval instead of also heartbeating on a second connection.
    // Only its arrival counts, not the time it is held open: an agent whose machine vanished
    // mid-poll must still turn inactive within the active window.
    this.presence.heard(agent.rota_nodes_id, agent.rota_clients_id);
    const deadline = Date.now() + Math.min(waitSeconds, this.timings.claimWaitSeconds) * 1000;
    for (;;) {
      // A closing instance answers "no work" so the agent re-polls elsewhere (or here later).
      if (signal?.aborted || this.waiters.closed) return [];
      const waiter = this.waiters.register(agent.rota_clients_id, agent.rota_vms_id);
      try {
        const client = agent.rota_clients_id;
        if (!this.emptyQueues.isEmpty(client)) {
          const runs = await this.claimOnce(agent, max);
          if (runs.length > 0) return runs;
          await this.emptyQueues.checkAfterEmptyClaim(client, () => hasQueuedRuns(this.db, client));
        }
        if (waiter.woken) continue;
        const left = deadline - Date.now();
        if (left <= 0) return [];
        let timer: NodeJS.Timeout | undefined;
        const onAbort = () => waiter.wake();
        signal?.addEventListener('abort', onAbort, { once: true });
        await Promise.race([
          waiter.wait,
          new Promise<void>((resolve) => (timer = setTimeout(resolve, left))),
        ]);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (!waiter.woken) return [];
      } finally {
        waiter.release();
      }
    }
  }

  private async claimOnce(agent: AgentIdentity, max: number): Promise<ClaimedRun[]> {
    const tokenByHash = newRunTokens(max);
    const rows = await claimRuns(
      this.db,
      agent,
      [...tokenByHash.keys()],
      this.timings.leaseSeconds,
    );
    return this.handOut(agent, rows, tokenByHash);
  }

  /** Claimed rows as the agent gets them; consoles hear they are processing. */
  private async handOut(
    agent: AgentIdentity,
    rows: (ClaimedRow & { token_hash: string })[],
    tokenByHash: Map<string, string>,
  ): Promise<ClaimedRun[]> {
    if (rows.length === 0) return [];
    for (const row of rows) {
      // Retries keep their first queued_at: only first attempts measure the queue's wait.
      if (row.attempts === 1) this.onClaimed(Number(row.waited_seconds));
      this.publish.live(row.rota_clients_id, {
        type: 'execution',
        execution_id: row.rota_executions_id,
        rota_robots_id: row.rota_robots_id,
        status: 'processing',
      });
    }
    // A parameter saved a moment ago must reach the next run: the parameters service keeps
    // its cache right (dropped on every change, here and, through NOTIFY, on every instance).
    const parameters = await this.parameters.readForRun(systemScope(agent.rota_clients_id));
    const shared = Object.fromEntries(
      parameters.filter((p) => !p.secret).map((p) => [`ROTA_PARAM_${p.name}`, p.value]),
    );
    return rows
      .map((row) => this.claimedRun(row, tokenByHash.get(row.token_hash)!, shared))
      .sort((x, y) => x.execution_id - y.execution_id);
  }

  private claimedRun(
    row: ClaimedRow,
    runToken: string,
    parameters: Record<string, string>,
  ): ClaimedRun {
    const environment: Record<string, string> = {
      ...parameters,
      ROTA_EXECUTION_ID: String(row.rota_executions_id),
      // The fencing number: the robot API refuses the calls of an attempt no longer current.
      ROTA_ATTEMPT: String(row.attempts),
      ROTA_EXECUTION_TOKEN: runToken,
    };
    return {
      execution_id: row.rota_executions_id,
      attempt: row.attempts,
      timeout_minutes: Math.ceil(row.timeout_seconds / 60),
      timeout_seconds: row.timeout_seconds,
      robot: {
        rota_robots_id: row.rota_robots_id,
        name: row.robot_name,
        executor: row.executor,
        remote_root: row.remote_root,
      },
      package:
        row.rota_robot_versions_id && row.sha256
          ? {
              rota_robot_versions_id: row.rota_robot_versions_id,
              version: row.version!,
              sha256: row.sha256,
              size_bytes: Number(row.size_bytes),
              format: row.format!,
              download_path: `${AGENT_PROTOCOL_BASE}/package/${row.sha256}`,
            }
          : null,
      environment,
    };
  }

  /** Whether the agent may download this package: a version of its client's robots has it. */
  mayDownload(agent: AgentIdentity, sha256: string): Promise<boolean> {
    return clientHasPackage(this.db, agent.rota_clients_id, sha256);
  }

  /**
   * Stores a batch once (seq), answers whether the agent must stop this run (and, for a
   * graceful stop, with what grace).
   */
  async logs(
    agent: AgentIdentity,
    batch: AgentLogBatch,
  ): Promise<{ cancel: boolean; stop_grace_seconds?: number }> {
    const execution = await findExecutionForLogs(this.db, agent, {
      execution_id: batch.execution_id,
      attempt: batch.attempt,
      lines: batch.lines.length,
    });
    if (!execution) throw notFound();
    if (execution.touched && execution.was_stalled) {
      // Activity resumed: the stall flag is gone.
      this.publish.live(agent.rota_clients_id, {
        type: 'execution',
        execution_id: batch.execution_id,
        rota_robots_id: execution.rota_robots_id,
        status: 'processing',
        stalled: false,
      });
    }
    if (batch.lines.length > 0) {
      const inserted = await insertLogLines(
        this.db,
        batch.lines.map((l) => ({
          rota_clients_id: agent.rota_clients_id,
          rota_executions_id: batch.execution_id,
          attempt: batch.attempt,
          seq: l.seq,
          stream: l.stream,
          line: l.line.slice(0, MAX_LINE),
          at: new Date(l.at),
          // Only a system line is the agent's own words; robots' output is never a code.
          code: l.stream === 'system' ? (l.code ?? null) : null,
          params: l.stream === 'system' ? (l.params ?? null) : null,
        })),
      );
      if (inserted.length > 0) {
        this.publish.live(agent.rota_clients_id, {
          type: 'log',
          execution_id: batch.execution_id,
          rota_robots_id: execution.rota_robots_id,
          last_seq: Math.max(...inserted),
        });
      }
    }
    const current =
      execution.status === 'processing' &&
      execution.rota_nodes_id === agent.rota_nodes_id &&
      execution.attempts === batch.attempt;
    const grace = current && execution.cancel ? (execution.stop_grace_seconds ?? 0) : 0;
    const cancel = !current || execution.cancel;
    return grace > 0 ? { cancel, stop_grace_seconds: grace } : { cancel };
  }

  /** Records an attempt's result once; a repeat or a superseded attempt changes nothing. */
  async finish(agent: AgentIdentity, result: AgentFinish): Promise<boolean> {
    const settled = await finishCurrentAttempt(this.db, agent, result);
    if (settled) {
      this.afterSettle(settled);
      return true;
    }
    return this.notCounted(agent, result);
  }

  /**
   * `finish`, then `claimMany` (up to `max`, waiting up to `waitSeconds` when nothing is
   * queued): the result and the first try of the claim in one statement. When the result is
   * refused (404, 409) the runs taken go back to the queue before the error is answered.
   */
  async finishAndClaim(
    agent: AgentIdentity,
    result: AgentFinish,
    claim: { wait_seconds: number; max: number },
    signal?: AbortSignal,
  ): Promise<{ accepted: boolean; runs: ClaimedRun[] }> {
    const tokenByHash = newRunTokens(claim.max);
    const hashes = [...tokenByHash.keys()];
    const { settled, claimed } =
      hashes.length === 1
        ? await this.finishClaims.finishAndClaim({ agent, result, tokenHash: hashes[0]! })
        : await finishAndClaimRuns(this.db, agent, result, hashes, this.timings.leaseSeconds);
    const runs = await this.handOut(agent, claimed, tokenByHash);
    let accepted = true;
    if (settled) this.afterSettle(settled);
    else {
      try {
        accepted = await this.notCounted(agent, result);
      } catch (error) {
        await this.giveBackAll(agent, runs);
        throw error;
      }
    }
    if (runs.length > 0 || claim.wait_seconds === 0) return { accepted, runs };
    return {
      accepted,
      runs: await this.claimMany(agent, claim.wait_seconds, claim.max, signal),
    };
  }

  /**
   * A result not counted. A repeat of a result already recorded answers 200 (idempotent); a
   * result for an attempt the server settled (lease lost) is kept on it as late and refused
   * (409), so the agent stops sending it; an unknown attempt is 404.
   */
  private async notCounted(agent: AgentIdentity, result: AgentFinish): Promise<false> {
    const outcome = await recordLateResult(this.db, agent, result);
    if (outcome === 'unknown') throw notFound();
    if (outcome === 'late') throw new AppError('stale_attempt');
    return false;
  }

  /** Announces the outcome and, for a retry, wakes an agent. */
  afterSettle(settled: Settled) {
    const { execution, status, requeued } = settled;
    this.publish.live(execution.rota_clients_id, {
      type: 'execution',
      execution_id: execution.rota_executions_id,
      rota_robots_id: execution.rota_robots_id,
      status,
    });
    if (requeued) void this.wakeForQueued(execution.rota_clients_id, execution.rota_executions_id);
    else if (execution.rota_schedulings_id !== null) {
      this.onSchedulingRunEnded(execution.rota_robots_id);
    }
  }

  /** An execution is back in the queue (a retry, a claim given back): wake an agent for it. */
  private async wakeForQueued(clientId: number, executionId: number) {
    const vmIds = await vmIdsOfExecution(this.db, executionId).catch(() => null);
    this.announceQueued(clientId, vmIds, 1);
  }

  /**
   * Cancel from the console: a queued run ends now; a running one is marked and its agent
   * stops it (it learns on its next log batch or heartbeat) and reports `cancelled`.
   */
  async cancel(
    clientId: number,
    id: number,
    /** Writes the cancel's audit record in its transaction. */
    record: (tx: Db, outcome: 'cancelled' | 'requested') => Promise<void>,
    /** A graceful stop: SIGTERM, then the tree killed after this many seconds (0: kill now). */
    graceSeconds = 0,
  ): Promise<'cancelled' | 'requested'> {
    const outcome = await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const execution = await lockExecution(tx, clientId, id);
      if (!execution) throw notFound();
      let result: 'cancelled' | 'requested';
      if (execution.status === 'queued') {
        await cancelQueued(tx, id);
        result = 'cancelled';
      } else if (execution.status === 'processing') {
        if (graceSeconds > 0) await requestStop(tx, id, graceSeconds);
        else await requestCancel(tx, id);
        result = 'requested';
      } else {
        throw new AppError('conflict', [{ field: 'id', message: 'execution_finished' }]);
      }
      await record(tx, result);
      return { execution, result };
    });
    this.publish.live(clientId, {
      type: 'execution',
      execution_id: id,
      rota_robots_id: outcome.execution.rota_robots_id,
      status: outcome.result === 'cancelled' ? 'cancelled' : 'processing',
    });
    return outcome.result;
  }
  /**
   * "Mark as failed": an operator ends a processing run whose agent is gone, now, as an
   * application error with `message`, without waiting for its lease and without a retry. The
   * attempt is ended by the server, so its agent is fenced as for a reaped run: the run token is
   * refused, a later result is kept as late, its log batches are told to stop; tasks it held go
   * back to pending.
   */
  async markFailed(
    clientId: number,
    id: number,
    /** The English text and its run-message code and values. */
    message: Pick<AttemptResult, 'message' | 'code' | 'params'>,
    /** Writes the audit record in its transaction. */
    record: (tx: Db) => Promise<void>,
  ): Promise<void> {
    const settled = await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const execution = await lockExecution(tx, clientId, id);
      if (!execution) throw notFound();
      if (execution.status !== 'processing') {
        throw new AppError('conflict', [{ field: 'id', message: 'execution_not_processing' }]);
      }
      // Final and an error, whatever a retry count or an earlier cancel would have made of it.
      const out = await settleAttempt(
        tx,
        { ...execution, retries: 0, cancel_requested_at: null },
        { status: 'application_error', exit_code: null, ...message },
      );
      await record(tx);
      return out;
    });
    this.afterSettle(settled);
  }
}
