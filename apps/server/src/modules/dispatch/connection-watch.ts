import type { Db } from '../../db/client.js';
import type { AgentBack } from '../agents/presence-service.js';
import {
  clearRunsConnectionLost,
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
  constructor(
    private readonly db: Db,
    private readonly publish: EnginePublisher,
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

  /** These agents were heard again after their connection was lost. */
  async back(agents: AgentBack[]): Promise<void> {
    if (agents.length === 0) return;
    const runs = await clearRunsConnectionLost(
      this.db,
      agents.map((a) => a.id),
    );
    this.announce(agents, runs, false);
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
