import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { rotaExecutions } from '../../db/schema/executions.js';
import { col, tableAs } from '../../lib/sql-refs.js';
import { hotStatement, rowsOf } from '../../lib/sql-rows.js';
import type { ExecutionRow } from './row-statements.js';
import { E, e, executionColumns, r } from './row-statements.js';

/**
 * Processing executions whose lease ran out `marginSeconds` ago (their agent stopped
 * heartbeating). The margin covers the agent's own fencing: it kills its robot when it could
 * not renew the lease, and that kill must be over before the run may go to another agent.
 */
export async function lockExpiredLeases(
  tx: Db,
  limit: number,
  marginSeconds: number,
): Promise<ExecutionRow[]> {
  return rowsOf<ExecutionRow>(
    tx,
    sql`select ${executionColumns(E)} from ${E}
         where ${E.status} = 'processing'
           and ${E.lease_expires_at} < now() - make_interval(secs => ${marginSeconds})
         order by ${E.lease_expires_at}
         limit ${limit}
         for update skip locked`,
  );
}

/** Renews the leases of the listed runs this agent holds; answers which ones it holds. */
type Renewed = { id: number; attempts: number; cancel: boolean; stop_grace: number | null };
const renewStatement = hotStatement<Renewed>(
  'rota_renew_leases',
  () => sql`update ${E}
           set ${col(E.lease_expires_at)} = now() + make_interval(secs => ${sql.placeholder('lease')})
         where ${E.rota_executions_id} = any(${sql.placeholder('ids')}::integer[])
           and ${E.rota_nodes_id} = ${sql.placeholder('agent')} and ${E.status} = 'processing'
        returning ${E.rota_executions_id} as id, ${E.attempts} as attempts,
                  ${E.cancel_requested_at} is not null as cancel,
                  case when ${E.cancel_requested_at} is not null
                       then ${E.stop_grace_seconds} end as stop_grace`,
);

export async function renewLeases(
  db: Db,
  agentId: number,
  executionIds: number[],
  leaseSeconds: number,
): Promise<Renewed[]> {
  if (executionIds.length === 0) return [];
  return renewStatement(db, {
    lease: leaseSeconds,
    ids: `{${executionIds.join(',')}}`,
    agent: agentId,
  });
}

/** The processing runs of an agent, but those it says it still holds, locked for settling. */
export async function lockRunsLeftOn(
  tx: Db,
  agentId: number,
  heldIds: number[],
): Promise<ExecutionRow[]> {
  return rowsOf<ExecutionRow>(
    tx,
    sql`select ${executionColumns(E)} from ${E}
         where ${E.status} = 'processing' and ${E.rota_nodes_id} = ${agentId}
           and not (${E.rota_executions_id} = any(${`{${heldIds.join(',')}}`}::integer[]))
         for update skip locked`,
  );
}

/** A run the stall duty found, with what its robot says to do. */
export type StalledRow = ExecutionRow & { stall_action: string; stalled: boolean };

/**
 * Processing runs whose robot has `stall_minutes` and whose latest activity (or start) is older
 * than that at `now`, locked (SKIP LOCKED: one instance handles each): those not yet flagged,
 * and with `kill` those flagged before the robot was switched to it.
 */
export async function lockStalledRuns(tx: Db, now: Date, limit: number): Promise<StalledRow[]> {
  return rowsOf<StalledRow>(
    tx,
    sql`select ${executionColumns(e as unknown as typeof rotaExecutions)}, ${r.stall_action} as stall_action, ${e.stalled} as stalled
          from ${tableAs(e)}
          join ${r} on ${r.rota_robots_id} = ${e.rota_robots_id}
         where ${e.status} = 'processing'
           and ${r.stall_minutes} is not null
           and (not ${e.stalled} or ${r.stall_action} = 'kill')
           and greatest(${e.last_activity_at}, ${e.started_at})
               < ${now.toISOString()}::timestamptz - make_interval(mins => ${r.stall_minutes})
         order by ${e.rota_executions_id}
         limit ${limit}
         for update of e skip locked`,
  );
}

/** Flags these runs stalled (status stays processing). */
export async function flagStalled(tx: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(
    sql`update ${E} set ${col(E.stalled)} = true
         where ${E.rota_executions_id} = any(${`{${ids.join(',')}}`}::integer[])`,
  );
}

/**
 * After every instance was down, running executions get one lease to report (their results may
 * wait in an agent's outbox). Answers how many.
 */
export async function extendRunningLeases(db: Db, leaseSeconds: number): Promise<number> {
  const extended = await db
    .update(E)
    .set({ lease_expires_at: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(
      and(
        eq(E.status, 'processing'),
        sql`${E.lease_expires_at} < now() + make_interval(secs => ${leaseSeconds})`,
      ),
    )
    .returning({ id: E.rota_executions_id });
  return extended.length;
}

/** A run whose agent's connection was lost or came back, for the live events it makes. */
export type ConnectionRun = { id: number; robot: number; client: number };

/**
 * The agent's connection was lost at `at`: its processing runs say so (their status and leases
 * stay: if the agent comes back within the lease, they go on). Answers the runs marked.
 */
export async function markRunsConnectionLost(
  tx: Db,
  agentId: number,
  at: Date,
): Promise<ConnectionRun[]> {
  return rowsOf<ConnectionRun>(
    tx,
    sql`update ${E} set ${col(E.connection_lost_at)} = ${at.toISOString()}::timestamptz
         where ${E.rota_nodes_id} = ${agentId} and ${E.status} = 'processing'
           and ${E.connection_lost_at} is null
        returning ${E.rota_executions_id} as id, ${E.rota_robots_id} as robot,
                  ${E.rota_clients_id} as client`,
  );
}

/**
 * These agents were heard again: their runs whose lease was renewed since the loss no longer
 * wait for them (a lease renewed before the loss ends before `loss + lease`). A run not renewed
 * keeps its mark: the agent may be a new process that no longer has it. Answers the runs.
 */
export async function clearRenewedSinceLoss(
  db: Db,
  agentIds: readonly number[],
  leaseSeconds: number,
): Promise<ConnectionRun[]> {
  if (agentIds.length === 0) return [];
  return rowsOf<ConnectionRun>(
    db,
    sql`update ${E} set ${col(E.connection_lost_at)} = null
         where ${E.rota_nodes_id} = any(${`{${agentIds.join(',')}}`}::integer[])
           and ${E.status} = 'processing' and ${E.connection_lost_at} is not null
           and ${E.lease_expires_at} > ${E.connection_lost_at} + make_interval(secs => ${leaseSeconds})
        returning ${E.rota_executions_id} as id, ${E.rota_robots_id} as robot,
                  ${E.rota_clients_id} as client`,
  );
}

/** Runs of this agent its heartbeat just renewed: they no longer wait. Answers those cleared. */
export async function clearRenewed(
  db: Db,
  agentId: number,
  executionIds: readonly number[],
): Promise<ConnectionRun[]> {
  if (executionIds.length === 0) return [];
  return rowsOf<ConnectionRun>(
    db,
    sql`update ${E} set ${col(E.connection_lost_at)} = null
         where ${E.rota_executions_id} = any(${`{${executionIds.join(',')}}`}::integer[])
           and ${E.rota_nodes_id} = ${agentId} and ${E.status} = 'processing'
           and ${E.connection_lost_at} is not null
        returning ${E.rota_executions_id} as id, ${E.rota_robots_id} as robot,
                  ${E.rota_clients_id} as client`,
  );
}
