import type { Db } from '../../db/client.js';
import type { AgentBack } from '../agents/presence-service.js';
import {
  clearRenewed,
  clearRenewedSinceLoss,
  markRunsConnectionLost,
  type ConnectionRun,
} from '../executions/lease-statements.js';
import type { EnginePublisher } from './live-events.js';

/**
 * What the console learns when an agent's stream closes without a goodbye: the kernel closes a
 * killed agent's socket at once, so the server knows in milliseconds what a lease would tell it
 * only half a minute later. The agent and its running runs are marked "connection lost" and the
 * console is told live; nothing else changes. The leases still decide: an agent back within its
 * lease goes on with its runs (fencing is the lease's, untouched here), one that is not has its
 * runs settled by the reaper as before, each attempt ending when its connection was lost.
 */
export class ConnectionWatch {
  /**
   * Agents heard again after a loss, on this instance, until their next heartbeat (or two
   * leases): that heartbeat clears the marks of the runs it renews. It comes here, where the
   * agent's calls now arrive. Agent id → when to forget it (ms).
   */
  private readonly recovering = new Map<number, number>();

  constructor(
    private readonly db: Db,
    private readonly publish: EnginePublisher,
    private readonly leaseSeconds: number,
  ) {}

  /**
   * The stream of this agent closed and it had not said goodbye: `markAgent` marks the agent
   * (the agents module's row, in this transaction) and answers whether it was online to lose.
   */
  async lost(
    agent: { rota_nodes_id: number; rota_clients_id: number },
    markAgent: (tx: Db, at: Date) => Promise<boolean>,
  ): Promise<void> {
    const at = new Date();
    const runs = await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      if (!(await markAgent(tx, at))) return null;
      return markRunsConnectionLost(tx, agent.rota_nodes_id, at);
    });
    if (runs === null) return;
    this.announce([{ id: agent.rota_nodes_id, client: agent.rota_clients_id }], runs, true);
  }

  /**
   * These agents were heard again after their connection was lost. Their runs stay marked until
   * a heartbeat renews them: a restarted agent (a new process, its hello) no longer has the runs
   * its old process held, which wait for their lease as before.
   */
  async back(agents: AgentBack[]): Promise<void> {
    if (agents.length === 0) return;
    const now = Date.now();
    // Agents that came back but held no run never heartbeat one: forget them in time.
    if (this.recovering.size > 1000) {
      for (const [id, until] of this.recovering) if (until <= now) this.recovering.delete(id);
    }
    const until = now + 2 * this.leaseSeconds * 1000;
    for (const a of agents) this.recovering.set(a.id, until);
    const runs = await clearRenewedSinceLoss(
      this.db,
      agents.map((a) => a.id),
      this.leaseSeconds,
    );
    this.announce(agents, runs, false);
  }

  /** Whether this agent's next heartbeat should clear marks (a Map read on every heartbeat). */
  recoveringAgent(agentId: number): boolean {
    const until = this.recovering.get(agentId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.recovering.delete(agentId);
    return false;
  }

  /** The agent's heartbeat renewed these runs: they no longer wait for it. */
  async renewed(agent: { rota_nodes_id: number }, executionIds: number[]): Promise<void> {
    this.recovering.delete(agent.rota_nodes_id);
    const runs = await clearRenewed(this.db, agent.rota_nodes_id, executionIds);
    this.announce([], runs, false);
  }

  private announce(agents: AgentBack[], runs: ConnectionRun[], lost: boolean): void {
    for (const a of agents) {
      this.publish.live(a.client, {
        type: 'agent',
        rota_nodes_id: a.id,
        connectivity: 'active',
        connection_lost: lost,
      });
    }
    for (const run of runs) {
      this.publish.live(run.client, {
        type: 'execution',
        execution_id: run.id,
        rota_robots_id: run.robot,
        status: 'processing',
        connection_lost: lost,
      });
    }
  }
}
