import { sql } from 'drizzle-orm';
import type { AgentFinish, ExecutionStatus } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { preparedRowsOf, rowsOf } from './sql-rows.js';

/** The columns of rota_executions the engine works with, as the drivers answer them. */
export interface ExecutionRow {
  rota_executions_id: number;
  rota_clients_id: number;
  rota_robots_id: number;
  rota_schedulings_id: number | null;
  rota_nodes_id: number | null;
  status: ExecutionStatus;
  attempts: number;
  retries: number;
  timeout_seconds: number;
  cancel_requested_at: Date | string | null;
}

const RETURNING = sql.raw(
  'rota_executions_id, rota_clients_id, rota_robots_id, rota_schedulings_id, rota_nodes_id, status, attempts, retries, timeout_seconds, cancel_requested_at',
);

export interface NewExecution {
  rota_clients_id: number;
  rota_robots_id: number;
  rota_schedulings_id: number | null;
  vm_ids: number[] | null;
  trigger: 'schedule' | 'manual';
  priority: number;
  timeout_seconds: number;
  retries: number;
  sleep_seconds: number;
  created_by: number | null;
}

export async function insertExecution(db: Db, run: NewExecution): Promise<number> {
  const vmIds = run.vm_ids ? sql`${`{${run.vm_ids.join(',')}}`}::integer[]` : sql`null`;
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`insert into rota_executions
          (rota_clients_id, rota_robots_id, rota_schedulings_id, vm_ids, trigger, priority,
           timeout_seconds, retries, sleep_seconds, created_by)
        values (${run.rota_clients_id}, ${run.rota_robots_id}, ${run.rota_schedulings_id}, ${vmIds},
                ${run.trigger}, ${run.priority}, ${run.timeout_seconds}, ${run.retries},
                ${run.sleep_seconds}, ${run.created_by})
        returning rota_executions_id as id`,
  );
  return row!.id;
}

export interface ClaimedRow extends ExecutionRow {
  rota_robot_versions_id: number | null;
  robot_name: string;
  executor: string;
  remote_root: string | null;
  version: string | null;
  sha256: string | null;
  size_bytes: string | number | null;
  format: 'zip' | 'tar.gz' | null;
}

/**
 * Takes the next execution this agent's VM may run: the highest priority, then the oldest.
 * SKIP LOCKED lets every instance claim at once without two taking the same row; `sleep`
 * keeps runs of one scheduling apart on one VM. One statement (atomic on its own): the claim,
 * its attempt row, and what the agent needs of the robot and its current version.
 */
export async function claimNext(
  db: Db,
  agent: { rota_clients_id: number; rota_nodes_id: number; rota_vms_id: number },
  runTokenHash: string,
  leaseSeconds: number,
): Promise<ClaimedRow | undefined> {
  const [row] = await preparedRowsOf<ClaimedRow>(
    db,
    'rota_claim_next',
    sql`with next as (
          select e.rota_executions_id
            from rota_executions e
           where e.rota_clients_id = ${agent.rota_clients_id}
             and e.status = 'queued'
             and (e.vm_ids is null or ${agent.rota_vms_id} = any(e.vm_ids))
             and (e.sleep_seconds = 0 or e.rota_schedulings_id is null or not exists (
                   select 1 from rota_executions p
                    where p.rota_schedulings_id = e.rota_schedulings_id
                      and p.rota_vms_id = ${agent.rota_vms_id}
                      and p.ended_at > now() - make_interval(secs => e.sleep_seconds)))
           order by e.priority desc nulls last, e.queued_at, e.rota_executions_id
           limit 1
           for update skip locked
        ),
        claimed as (
          update rota_executions e
             set status = 'processing',
                 attempts = e.attempts + 1,
                 rota_nodes_id = ${agent.rota_nodes_id},
                 rota_vms_id = ${agent.rota_vms_id},
                 started_at = coalesce(e.started_at, now()),
                 lease_expires_at = now() + make_interval(secs => ${leaseSeconds}),
                 run_token_hash = ${runTokenHash},
                 rota_robot_versions_id = (select r.rota_robot_versions_id_current
                                             from rota_robots r
                                            where r.rota_robots_id = e.rota_robots_id)
            from next
           where e.rota_executions_id = next.rota_executions_id
          returning e.*
        ),
        attempt as (
          insert into rota_execution_attempts
                 (rota_clients_id, rota_executions_id, attempt, rota_nodes_id, rota_vms_id,
                  run_token_hash)
          select rota_clients_id, rota_executions_id, attempts, ${agent.rota_nodes_id}, ${agent.rota_vms_id},
                 ${runTokenHash}
            from claimed
          on conflict do nothing
        )
        select c.rota_executions_id, c.rota_clients_id, c.rota_robots_id, c.rota_schedulings_id,
               c.rota_nodes_id, c.status, c.attempts, c.retries, c.timeout_seconds,
               c.cancel_requested_at, c.rota_robot_versions_id,
               r.name as robot_name, r.executor, r.remote_root,
               v.version, v.sha256, v.size_bytes, v.format
          from claimed c
          join rota_robots r on r.rota_robots_id = c.rota_robots_id
          left join rota_robot_versions v on v.rota_robot_versions_id = c.rota_robot_versions_id`,
  );
  return row;
}

export async function lockExecution(
  tx: Db,
  clientId: number,
  id: number,
): Promise<ExecutionRow | undefined> {
  const [row] = await rowsOf<ExecutionRow>(
    tx,
    sql`select ${RETURNING} from rota_executions
         where rota_executions_id = ${id} and rota_clients_id = ${clientId}
         for update`,
  );
  return row;
}

export type AttemptResult = Pick<AgentFinish, 'status' | 'exit_code' | 'message'>;

/** What became of the execution after one attempt ended. */
export type Settled = { execution: ExecutionRow; status: ExecutionStatus; requeued: boolean };

/**
 * The server ends the current attempt of a locked execution (its agent is lost or gone) and
 * decides what follows: application errors and timeouts go back to the queue while retries
 * remain (DESIGN §6), a business error never does, a run the console cancelled ends
 * `cancelled`. Tasks the run held go back to pending. The attempt is marked as ended by the
 * server, so a result its agent delivers later is kept as late, never applied.
 */
export async function settleAttempt(
  tx: Db,
  execution: ExecutionRow,
  result: AttemptResult,
): Promise<Settled> {
  const cancelled = execution.cancel_requested_at !== null || result.status === 'cancelled';
  const attemptStatus: ExecutionStatus = cancelled ? 'cancelled' : result.status;
  const retryable = attemptStatus === 'application_error' || attemptStatus === 'timeout';
  const requeued = retryable && execution.attempts <= execution.retries;
  const status: ExecutionStatus = requeued ? 'queued' : attemptStatus;
  // One statement: the attempt's end, the run's held tasks back to pending, the run's state.
  await tx.execute(
    sql`with ended_attempt as (
          update rota_execution_attempts
             set status = ${attemptStatus}, exit_code = ${result.exit_code},
                 message = ${result.message}, ended_at = now(), ended_by = 'server'
           where rota_executions_id = ${execution.rota_executions_id}
             and attempt = ${execution.attempts} and ended_at is null
        ),
        released_tasks as (
          update rota_tasks set status = 'pending', rota_executions_id = null, updated_at = now()
           where rota_executions_id = ${execution.rota_executions_id} and status = 'processing'
        )
        update rota_executions
           set status = ${status}, exit_code = ${result.exit_code}, message = ${result.message},
               lease_expires_at = null, run_token_hash = null,
               ended_at = ${requeued ? sql`null` : sql`now()`}
         where rota_executions_id = ${execution.rota_executions_id}`,
  );
  return { execution, status, requeued };
}

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
    sql`select ${RETURNING} from rota_executions
         where status = 'processing'
           and lease_expires_at < now() - make_interval(secs => ${marginSeconds})
         order by lease_expires_at
         limit ${limit}
         for update skip locked`,
  );
}

/** Renews the leases of the listed runs this agent holds; answers which ones it holds. */
export async function renewLeases(
  db: Db,
  agentId: number,
  executionIds: number[],
  leaseSeconds: number,
): Promise<{ id: number; attempts: number; cancel: boolean }[]> {
  if (executionIds.length === 0) return [];
  return rowsOf(
    db,
    sql`update rota_executions
           set lease_expires_at = now() + make_interval(secs => ${leaseSeconds})
         where rota_executions_id = any(${`{${executionIds.join(',')}}`}::integer[])
           and rota_nodes_id = ${agentId} and status = 'processing'
        returning rota_executions_id as id, attempts, cancel_requested_at is not null as cancel`,
  );
}

/**
 * An agent's result for its current attempt, in one statement (no transaction held open between
 * round trips): the same decisions as `settleAttempt`. Answers nothing when the attempt already
 * ended or is no longer the agent's current one; a concurrent repeat waits for the row lock,
 * then finds the run no longer processing.
 */
export async function finishCurrentAttempt(
  db: Db,
  agent: { rota_clients_id: number; rota_nodes_id: number },
  result: AttemptResult & { execution_id: number; attempt: number },
): Promise<Settled | null> {
  const [row] = await preparedRowsOf<ExecutionRow & { requeued: boolean }>(
    db,
    'rota_finish_attempt',
    sql`with cur as (
          select e.rota_executions_id, e.attempts, e.retries, e.cancel_requested_at
            from rota_executions e
           where e.rota_executions_id = ${result.execution_id}
             and e.rota_clients_id = ${agent.rota_clients_id}
             and e.status = 'processing' and e.attempts = ${result.attempt}
             and e.rota_nodes_id = ${agent.rota_nodes_id}
           for update
        ),
        att as (
          update rota_execution_attempts a
             set status = case when cur.cancel_requested_at is not null then 'cancelled'
                               else ${result.status}::text end,
                 exit_code = ${result.exit_code}, message = ${result.message}, ended_at = now(),
                 ended_by = 'agent'
            from cur
           where a.rota_executions_id = cur.rota_executions_id
             and a.attempt = ${result.attempt} and a.ended_at is null
          returning a.rota_executions_id, a.status
        ),
        decided as (
          select att.rota_executions_id, att.status,
                 att.status in ('application_error', 'timeout') and cur.attempts <= cur.retries
                   as requeued
            from att join cur on cur.rota_executions_id = att.rota_executions_id
        ),
        released as (
          update rota_tasks set status = 'pending', rota_executions_id = null, updated_at = now()
           where rota_executions_id = (select rota_executions_id from decided)
             and status = 'processing'
        )
        update rota_executions e
           set status = case when d.requeued then 'queued' else d.status end,
               exit_code = ${result.exit_code}, message = ${result.message},
               lease_expires_at = null, run_token_hash = null,
               ended_at = case when d.requeued then null else now() end
          from decided d
         where e.rota_executions_id = d.rota_executions_id
        returning e.rota_executions_id, e.rota_clients_id, e.rota_robots_id,
                  e.rota_schedulings_id, e.rota_nodes_id, e.status, e.attempts, e.retries,
                  e.timeout_seconds, e.cancel_requested_at, d.requeued`,
  );
  if (!row) return null;
  const { requeued, ...execution } = row;
  return { execution, status: execution.status, requeued };
}

/**
 * A result for an attempt the server had already settled (its lease ran out while the agent
 * could not report): kept on that attempt as late, never applied to the execution, which may
 * already be running again elsewhere. Answers whether the attempt is one the server ended.
 */
export async function recordLateResult(
  db: Db,
  agent: { rota_clients_id: number; rota_nodes_id: number },
  result: AttemptResult & { execution_id: number; attempt: number },
): Promise<'late' | 'repeat' | 'unknown'> {
  const [row] = await rowsOf<{ ended_by: string | null; recorded: boolean }>(
    db,
    sql`with found as (
          select rota_execution_attempts_id, ended_by, late_reported_at
            from rota_execution_attempts
           where rota_executions_id = ${result.execution_id} and attempt = ${result.attempt}
             and rota_clients_id = ${agent.rota_clients_id}
           for update
        ),
        recorded as (
          update rota_execution_attempts a
             set late_status = ${result.status}, late_exit_code = ${result.exit_code},
                 late_message = ${result.message}, late_reported_at = now()
            from found
           where a.rota_execution_attempts_id = found.rota_execution_attempts_id
             and found.ended_by = 'server' and found.late_reported_at is null
             and a.rota_nodes_id = ${agent.rota_nodes_id}
          returning a.rota_execution_attempts_id
        )
        select found.ended_by, exists (select 1 from recorded) as recorded from found`,
  );
  if (!row) return 'unknown';
  return row.ended_by === 'server' ? 'late' : 'repeat';
}

/**
 * A claim whose answer never reached its agent (the long poll's connection was gone): the run
 * goes back to the queue as if never claimed, its attempt forgotten. Only while nothing of the
 * attempt happened: it is still processing on that agent with that attempt number.
 */
export async function releaseClaim(
  db: Db,
  agentId: number,
  executionId: number,
  attempt: number,
): Promise<boolean> {
  const released = await rowsOf<{ id: number }>(
    db,
    sql`with released as (
          update rota_executions
             set status = 'queued', attempts = attempts - 1, rota_nodes_id = null,
                 rota_vms_id = null, lease_expires_at = null, run_token_hash = null,
                 started_at = case when attempts = 1 then null else started_at end
           where rota_executions_id = ${executionId} and attempts = ${attempt}
             and status = 'processing' and rota_nodes_id = ${agentId}
          returning rota_executions_id
        ),
        forgotten as (
          delete from rota_execution_attempts a using released
           where a.rota_executions_id = released.rota_executions_id and a.attempt = ${attempt}
        )
        select rota_executions_id as id from released`,
  );
  return released.length > 0;
}

/** The processing runs of an agent, but those it says it still holds, locked for settling. */
export async function lockRunsLeftOn(
  tx: Db,
  agentId: number,
  heldIds: number[],
): Promise<ExecutionRow[]> {
  return rowsOf<ExecutionRow>(
    tx,
    sql`select ${RETURNING} from rota_executions
         where status = 'processing' and rota_nodes_id = ${agentId}
           and not (rota_executions_id = any(${`{${heldIds.join(',')}}`}::integer[]))
         for update skip locked`,
  );
}

/**
 * A robot API call made with the token of an attempt that is no longer current: counted on
 * that attempt (what the console shows), never applied. Answers whether the token is known.
 */
export async function recordStaleCall(db: Db, runTokenHash: string): Promise<boolean> {
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`update rota_execution_attempts set refused_calls = refused_calls + 1
         where run_token_hash = ${runTokenHash}
        returning rota_executions_id as id`,
  );
  return rows.length > 0;
}
