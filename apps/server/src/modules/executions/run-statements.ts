import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rotaExecutionLogs } from '../../db/schema/executions.js';
import { col } from '../../lib/sql-refs.js';
import { hotStatement, rowsOf } from '../../lib/sql-rows.js';
import { A, E } from './row-statements.js';

/**
 * A robot API call made with the token of an attempt that is no longer current: counted on
 * that attempt (what the console shows), never applied. Answers whether the token is known.
 */
export async function recordStaleCall(db: Db, runTokenHash: string): Promise<boolean> {
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`update ${A} set ${col(A.refused_calls)} = ${A.refused_calls} + 1
         where ${A.run_token_hash} = ${runTokenHash}
        returning ${A.rota_executions_id} as id`,
  );
  return rows.length > 0;
}

/**
 * What a log batch needs to know of its run: whether its agent must stop it. A batch with lines
 * for the run's current attempt is activity: in the same statement it moves `last_activity_at`
 * and clears `stalled` (`was_stalled` says whether that cleared a flag).
 */
const logBatchStatement = hotStatement<{
  rota_nodes_id: number | null;
  rota_robots_id: number;
  status: string;
  attempts: number;
  cancel: boolean;
  stop_grace_seconds: number | null;
  was_stalled: boolean;
  touched: boolean;
}>(
  'rota_log_batch_run',
  () => sql`with cur as (
          select ${E.rota_executions_id} as id, ${E.rota_nodes_id} as rota_nodes_id,
                 ${E.rota_robots_id} as rota_robots_id, ${E.status} as status,
                 ${E.attempts} as attempts, ${E.cancel_requested_at} is not null as cancel,
                 ${E.stop_grace_seconds} as stop_grace_seconds, ${E.stalled} as was_stalled
            from ${E}
           where ${E.rota_executions_id} = ${sql.placeholder('execution')}
             and ${E.rota_clients_id} = ${sql.placeholder('client')}
        ),
        touched as (
          update ${E} set ${col(E.last_activity_at)} = now(), ${col(E.stalled)} = false
            from cur
           where ${E.rota_executions_id} = cur.id and ${sql.placeholder('lines')}::boolean
             and ${E.status} = 'processing' and ${E.rota_nodes_id} = ${sql.placeholder('agent')}
             and ${E.attempts} = ${sql.placeholder('attempt')}
          returning ${E.rota_executions_id}
        )
        select cur.*, exists (select 1 from touched) as touched from cur`,
);

export async function findExecutionForLogs(
  db: Db,
  agent: { rota_clients_id: number; rota_nodes_id: number },
  batch: { execution_id: number; attempt: number; lines: number },
) {
  const [row] = await logBatchStatement(db, {
    execution: batch.execution_id,
    client: agent.rota_clients_id,
    agent: agent.rota_nodes_id,
    attempt: batch.attempt,
    lines: batch.lines > 0,
  });
  return row;
}

/**
 * The robot API's `progress`: what it says (a field left out keeps its value), and activity:
 * `last_activity_at` moves, `stalled` clears. Answers whether a stall flag was cleared.
 */
export async function recordProgress(
  db: Db,
  executionId: number,
  progress: { percent?: number | null | undefined; message?: string | null | undefined },
): Promise<{ was_stalled: boolean; progress_percent: number | null } | undefined> {
  const percent =
    progress.percent === undefined ? sql`${E.progress_percent}` : sql`${progress.percent}::integer`;
  const message =
    progress.message === undefined ? sql`${E.progress_message}` : sql`${progress.message}::text`;
  const [row] = await rowsOf<{ was_stalled: boolean; progress_percent: number | null }>(
    db,
    sql`with cur as (
          select ${E.rota_executions_id} as id, ${E.stalled} as was_stalled from ${E}
           where ${E.rota_executions_id} = ${executionId} and ${E.status} = 'processing'
           for update
        )
        update ${E}
           set ${col(E.progress_percent)} = ${percent}, ${col(E.progress_message)} = ${message},
               ${col(E.last_activity_at)} = now(), ${col(E.stalled)} = false
          from cur
         where ${E.rota_executions_id} = cur.id
        returning cur.was_stalled, ${E.progress_percent} as progress_percent`,
  );
  return row;
}

export type NewLogLine = Pick<
  typeof rotaExecutionLogs.$inferInsert,
  | 'rota_clients_id'
  | 'rota_executions_id'
  | 'attempt'
  | 'seq'
  | 'stream'
  | 'line'
  | 'at'
  | 'code'
  | 'params'
>;

/** Stores lines once (a resent batch repeats its seqs); answers the ids of those new. */
export async function insertLogLines(db: Db, lines: NewLogLine[]): Promise<number[]> {
  const inserted = await db
    .insert(rotaExecutionLogs)
    .values(lines)
    .onConflictDoNothing()
    .returning({ id: rotaExecutionLogs.rota_execution_logs_id });
  return inserted.map((row) => Number(row.id));
}

/** Where a run may go: the VMs it may use (null: any) and the labels an agent must carry. */
export async function queueTargetOfExecution(
  db: Db,
  id: number,
): Promise<{ vm_ids: number[] | null; labels: string[] } | undefined> {
  const [row] = await db
    .select({ vm_ids: E.vm_ids, labels: E.labels })
    .from(E)
    .where(eq(E.rota_executions_id, id));
  return row;
}

/** A queued run cancelled before any agent took it: it ends now. */
export async function cancelQueued(tx: Db, id: number) {
  await tx
    .update(E)
    .set({ status: 'cancelled', ended_at: sql`now()`, cancel_requested_at: sql`now()` })
    .where(eq(E.rota_executions_id, id));
}

/**
 * A running run's agent is asked to kill it now (it learns on its next log batch or
 * heartbeat); this also cuts short the grace of a stop asked before.
 */
export async function requestCancel(tx: Db, id: number) {
  await tx
    .update(E)
    .set({
      cancel_requested_at: sql`coalesce(${E.cancel_requested_at}, now())`,
      stop_grace_seconds: null,
    })
    .where(eq(E.rota_executions_id, id));
}

/**
 * A running run's agent is asked to stop it gracefully: SIGTERM, then its tree killed after
 * `graceSeconds`. A second request may shorten the grace, never lengthen it; after a kill now
 * (a cancel) it stays a kill now.
 */
export async function requestStop(tx: Db, id: number, graceSeconds: number) {
  await tx
    .update(E)
    .set({
      cancel_requested_at: sql`coalesce(${E.cancel_requested_at}, now())`,
      stop_grace_seconds: sql`case when ${E.cancel_requested_at} is null then ${graceSeconds}::integer
                                   when ${E.stop_grace_seconds} is null then null
                                   else least(${E.stop_grace_seconds}, ${graceSeconds}::integer) end`,
    })
    .where(eq(E.rota_executions_id, id));
}

/** Robot API `status`: whether the console asked this run to stop (or cancelled it). */
export async function stopRequestedOf(
  db: Db,
  id: number,
): Promise<{ stop: boolean; vmId: number | null }> {
  const [row] = await db
    .select({ stop: sql<boolean>`${E.cancel_requested_at} is not null`, vmId: E.rota_vms_id })
    .from(E)
    .where(eq(E.rota_executions_id, id));
  return { stop: row?.stop ?? false, vmId: row?.vmId ?? null };
}

/** The processing run a robot API token belongs to (its current attempt's token). */
export async function findRunByToken(db: Db, runTokenHash: string) {
  const [run] = await db
    .select({
      rota_executions_id: E.rota_executions_id,
      rota_clients_id: E.rota_clients_id,
      rota_robots_id: E.rota_robots_id,
      attended: sql<boolean>`${E.attended_by} is not null`,
    })
    .from(E)
    .where(and(eq(E.run_token_hash, runTokenHash), eq(E.status, 'processing')));
  return run;
}

/**
 * Processing runs a maintenance window stops or kills: on one VM of a client, or everywhere
 * (`vmId` null). Answers each run's client, which the operator's stop and cancel take.
 */
export async function processingRunsIn(
  db: Db,
  where: { clientId: number; vmId: number } | null,
): Promise<{ id: number; client: number }[]> {
  const on = where
    ? and(eq(E.rota_clients_id, where.clientId), eq(E.rota_vms_id, where.vmId))
    : undefined;
  return db
    .select({ id: E.rota_executions_id, client: E.rota_clients_id })
    .from(E)
    .where(and(eq(E.status, 'processing'), on));
}
