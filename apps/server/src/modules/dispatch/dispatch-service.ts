import {
  ENGINE_TIMINGS,
  type AgentFinish,
  type AgentGoodbye,
  type AgentHeartbeat,
  type AgentHello,
  type AgentLogBatch,
  type AgentUpdateOffer,
  type ClaimedRun,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import type {
  AgentFacts,
  AgentIdentity,
  AgentPresenceService,
} from '../agents/presence-service.js';
import { claimRuns, hasQueuedRuns, releaseClaim } from '../executions/claim-statements.js';
import { finishAndClaimRuns } from '../executions/finish-claim-statements.js';
import { lockRunsLeftOn, renewLeases } from '../executions/lease-statements.js';
import { findExecutionForLogs, insertLogLines } from '../executions/run-statements.js';
import { helloLabelsOf, sameLabels } from '../agents/labels.js';
import { attendedUserOf } from '../agents/attended-user.js';
import { clientHasPackage } from './package-lookup-repository.js';
import {
  finishCurrentAttempt,
  recordLateResult,
  settleAbandoned,
} from '../executions/settle-statements.js';
import type { AgentIdentities } from './agent-identities.js';
import type { ClaimWaiters } from './claim-waiters.js';
import type { ConnectionWatch } from './connection-watch.js';
import { FinishClaimBatcher, type BatcherLog } from './finish-claim-batcher.js';
import type { EnginePublisher } from './live-events.js';
import { newRunTokens, type RunHandout } from './run-handout.js';
import type { Settlements } from './settlements.js';
import type { WorkAnnouncer } from './work-announcer.js';
import { claimed as traceClaimed } from '../../lib/telemetry-spans.js';

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

/** Lent by the agents module: the update an agent should make now (agents/updates.ts). */
export interface UpdateOffers {
  offerFor(agentId: number): Promise<AgentUpdateOffer | undefined>;
}

export interface DispatchDeps {
  db: Db;
  /** Where log batches are written (Database.logDb: commits not waited for); absent: `db`. */
  logDb?: Db | undefined;
  presence: AgentPresenceService;
  publish: EnginePublisher;
  announcer: WorkAnnouncer;
  identities: AgentIdentities;
  handout: RunHandout;
  settlements: Settlements;
  connections: ConnectionWatch;
  timings?: DispatchTimings;
  log?: BatcherLog;
  updates?: UpdateOffers;
  /** Maintenance: agents it blocks take no new runs (maintenance/gate.ts, in memory). */
  maintenance?: { blocks(vmId: number): boolean };
}

/**
 * The agents' side of a run, whichever front they speak through (HTTP or the stream): hello,
 * heartbeats that renew leases, claims (long polls woken by the announcer), log batches,
 * results counted once, goodbyes. Every state change is one transaction on the execution row;
 * the database is the only thing instances share.
 */
export class DispatchService {
  readonly timings: DispatchTimings;
  private readonly db: Db;
  private readonly logDb: Db;
  private readonly presence: AgentPresenceService;
  private readonly publish: EnginePublisher;
  private readonly announcer: WorkAnnouncer;
  private readonly identities: AgentIdentities;
  private readonly handout: RunHandout;
  private readonly settlements: Settlements;
  private readonly connections: ConnectionWatch;
  private readonly finishClaims: FinishClaimBatcher;
  private readonly updates: UpdateOffers | undefined;
  private readonly maintenance: { blocks(vmId: number): boolean } | undefined;

  constructor(deps: DispatchDeps) {
    this.db = deps.db;
    this.logDb = deps.logDb ?? deps.db;
    this.presence = deps.presence;
    this.publish = deps.publish;
    this.announcer = deps.announcer;
    this.identities = deps.identities;
    this.handout = deps.handout;
    this.settlements = deps.settlements;
    this.connections = deps.connections;
    this.updates = deps.updates;
    this.maintenance = deps.maintenance;
    this.timings = deps.timings ?? dispatchTimingsFor(ENGINE_TIMINGS.leaseSeconds);
    this.finishClaims = new FinishClaimBatcher(this.db, this.timings.leaseSeconds, deps.log);
  }

  /** This instance's waiting claims (a closing instance answers them all "no work"). */
  get waiters(): ClaimWaiters {
    return this.announcer.waiters;
  }

  /**
   * The update this agent should make between runs, if any: said in the answers of its hello,
   * heartbeats and empty claims. A failure to work it out never fails the call it rides on.
   */
  async updateOffer(agent: AgentIdentity): Promise<AgentUpdateOffer | undefined> {
    if (!this.updates) return undefined;
    return this.updates.offerFor(agent.rota_nodes_id).catch(() => undefined);
  }

  authenticate(token: string): Promise<AgentIdentity> {
    return this.identities.authenticate(token);
  }

  async hello(agent: AgentIdentity, hello: AgentHello) {
    const { hostname, version, os, labels: _declared, attended_user, ...facts } = hello;
    const helloLabels = helloLabelsOf(hello);
    const attended = await attendedUserOf(this.db, agent.rota_clients_id, attended_user);
    await this.touch(agent, {
      hostname,
      version,
      os,
      facts,
      hello_labels: helloLabels,
      attended_users_id: attended,
    });
    // Claims go by the cached identity's labels and attended user: one that changed must be
    // read again, here and on every other instance.
    if (
      !sameLabels(helloLabels, agent.hello_labels) ||
      attended !== (agent.attended_users_id ?? null)
    ) {
      this.identities.forget([agent.rota_nodes_id]);
      this.publish.agentChanged(agent.rota_nodes_id);
      // The console's list shows what it carries.
      this.publish.live(agent.rota_clients_id, {
        type: 'agent',
        rota_nodes_id: agent.rota_nodes_id,
        connectivity: 'active',
      });
    }
    const update = await this.updateOffer(agent);
    return {
      rota_nodes_id: agent.rota_nodes_id,
      name: agent.name,
      rota_vms_id: agent.rota_vms_id,
      heartbeat_seconds: this.timings.heartbeatSeconds,
      lease_seconds: this.timings.leaseSeconds,
      claim_wait_seconds: this.timings.claimWaitSeconds,
      claim_is_heartbeat: true,
      stream: true,
      ...(update ? { update } : {}),
      ...(this.inMaintenance(agent) ? { maintenance: true } : {}),
    };
  }

  async heartbeat(
    agent: AgentIdentity,
    beat: AgentHeartbeat,
  ): Promise<{
    cancel: number[];
    stop: { execution_id: number; grace_seconds: number }[];
    update?: AgentUpdateOffer;
    maintenance?: boolean;
  }> {
    await this.touch(agent);
    const ids = beat.running.map((r) => r.execution_id);
    const held = await renewLeases(this.db, agent.rota_nodes_id, ids, this.timings.leaseSeconds);
    if (held.length > 0 && this.connections.recoveringAgent(agent.rota_nodes_id)) {
      await this.connections.renewed(
        agent,
        held.map((h) => h.id),
      );
    }
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
    const update = await this.updateOffer(agent);
    const maintenance = this.inMaintenance(agent) ? { maintenance: true } : {};
    return update ? { cancel, stop, update, ...maintenance } : { cancel, stop, ...maintenance };
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
    for (const s of settled) this.settlements.announce(s);
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
    await this.announcer.requeued(agent.rota_clients_id, run.execution_id);
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
    const seen = await this.presence.seen(agent.rota_nodes_id, facts);
    if (seen.back) {
      this.publish.live(agent.rota_clients_id, {
        type: 'agent',
        rota_nodes_id: agent.rota_nodes_id,
        connectivity: 'active',
      });
    }
    if (seen.reconnected) {
      await this.connections.back([{ id: agent.rota_nodes_id, client: agent.rota_clients_id }]);
    }
  }

  /**
   * The agent's stream closed without a goodbye (its machine or network died): the agent and
   * its runs show it at once; the leases still decide what becomes of them.
   */
  connectionLost(agent: AgentIdentity): Promise<void> {
    return this.connections.lost(agent, (tx, at) =>
      this.presence.connectionLost(tx, agent.rota_nodes_id, at),
    );
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
      const waiter = this.waiters.register(agent.rota_clients_id, agent.rota_vms_id, agent.labels);
      try {
        const client = agent.rota_clients_id;
        if (!this.inMaintenance(agent) && !this.announcer.emptyQueues.isEmpty(client)) {
          const runs = await this.claimOnce(agent, max);
          if (runs.length > 0) return runs;
          await this.announcer.emptyQueues.checkAfterEmptyClaim(client, () =>
            hasQueuedRuns(this.db, client),
          );
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
    const runs = await this.handout.handOut(agent.rota_clients_id, rows, tokenByHash);
    if (runs.length > 0) traceClaimed(agent, runs);
    return runs;
  }

  /** Whether a maintenance window holds this agent back from new runs. */
  inMaintenance(agent: AgentIdentity): boolean {
    return this.maintenance?.blocks(agent.rota_vms_id) ?? false;
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
    const execution = await findExecutionForLogs(this.logDb, agent, {
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
        this.logDb,
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
      this.settlements.announce(settled);
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
    if (this.inMaintenance(agent)) {
      const accepted = await this.finish(agent, result);
      if (claim.wait_seconds === 0) return { accepted, runs: [] };
      return { accepted, runs: await this.claimMany(agent, claim.wait_seconds, claim.max, signal) };
    }
    const tokenByHash = newRunTokens(claim.max);
    const hashes = [...tokenByHash.keys()];
    const { settled, claimed } =
      hashes.length === 1
        ? await this.finishClaims.finishAndClaim({ agent, result, tokenHash: hashes[0]! })
        : await finishAndClaimRuns(this.db, agent, result, hashes, this.timings.leaseSeconds);
    const runs = await this.handout.handOut(agent.rota_clients_id, claimed, tokenByHash);
    if (runs.length > 0) traceClaimed(agent, runs);
    let accepted = true;
    if (settled) this.settlements.announce(settled);
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
}
