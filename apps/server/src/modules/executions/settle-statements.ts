import { sql } from 'drizzle-orm';
import {
  runMessageText,
  type AgentFinish,
  type ExecutionStatus,
  type RunMessageCode,
  type RunMessageParams,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { releaseTasksHeldBy } from '../tasks/statements.js';
import { col } from '../../lib/sql-refs.js';
import { hotStatement, rowsOf } from '../../lib/sql-rows.js';
import type { ExecutionRow } from './row-statements.js';
import { A, E, executionColumns } from './row-statements.js';

export async function lockExecution(
  tx: Db,
  clientId: number,
  id: number,
): Promise<ExecutionRow | undefined> {
  const [row] = await rowsOf<ExecutionRow>(
    tx,
    sql`select ${executionColumns(E)} from ${E}
         where ${E.rota_executions_id} = ${id} and ${E.rota_clients_id} = ${clientId}
         for update`,
  );
  return row;
}

/** `code`/`params`: the message as a run-message code and values (absent: its text only). */
export type AttemptResult = Pick<AgentFinish, 'status' | 'exit_code' | 'message'> & {
  code?: string | null;
  params?: RunMessageParams | null;
};

/** A result's code and values as stored, both null when it has no known code. */
export function codeOf(result: AttemptResult): { code: string | null; params: string | null } {
  if (!result.code) return { code: null, params: null };
  return { code: result.code, params: JSON.stringify(result.params ?? {}) };
}

/** What became of the execution after one attempt ended. */
export type Settled = { execution: ExecutionRow; status: ExecutionStatus; requeued: boolean };

/**
 * The server ends the current attempt of a locked execution (its agent is lost or gone) and
 * decides what follows: application errors and timeouts go back to the queue while retries
 * remain, a business error never does, a run the console cancelled ends
 * `cancelled`. Tasks the run held go back to pending. The attempt is marked as ended by the
 * server, so a result its agent delivers later is kept as late, never applied.
 */
export async function settleAttempt(
  tx: Db,
  execution: ExecutionRow,
  result: AttemptResult,
  /** When the attempt ended, if before now (its agent's connection was lost then). */
  endedAt: Date | null = null,
): Promise<Settled> {
  const cancelled = execution.cancel_requested_at !== null || result.status === 'cancelled';
  const attemptStatus: ExecutionStatus = cancelled ? 'cancelled' : result.status;
  const retryable = attemptStatus === 'application_error' || attemptStatus === 'timeout';
  const requeued = retryable && execution.attempts <= execution.retries;
  const status: ExecutionStatus = requeued ? 'queued' : attemptStatus;
  const coded = codeOf(result);
  const ended = endedAt ? sql`${new Date(endedAt).toISOString()}::timestamptz` : sql`now()`;
  // One statement: the attempt's end, the run's held tasks back to pending, the run's state.
  await tx.execute(
    sql`with ended_attempt as (
          update ${A}
             set ${col(A.status)} = ${attemptStatus}, ${col(A.exit_code)} = ${result.exit_code},
                 ${col(A.message)} = ${result.message}, ${col(A.ended_at)} = ${ended},
                 ${col(A.message_code)} = ${coded.code},
                 ${col(A.message_params)} = ${coded.params}::jsonb,
                 ${col(A.ended_by)} = 'server'
           where ${A.rota_executions_id} = ${execution.rota_executions_id}
             and ${A.attempt} = ${execution.attempts} and ${A.ended_at} is null
        ),
        released_tasks as (${releaseTasksHeldBy(execution.rota_executions_id)})
        update ${E}
           set ${col(E.status)} = ${status}, ${col(E.exit_code)} = ${result.exit_code},
               ${col(E.message)} = ${result.message}, ${col(E.lease_expires_at)} = null,
               ${col(E.message_code)} = ${coded.code},
               ${col(E.message_params)} = ${coded.params}::jsonb,
               ${col(E.run_token_hash)} = null, ${col(E.connection_lost_at)} = null,
               ${col(E.ended_at)} = ${requeued ? sql`null` : ended}
         where ${E.rota_executions_id} = ${execution.rota_executions_id}`,
  );
  return { execution, status, requeued };
}

/**
 * Attempts whose agent is gone (lost, or stopped without them) end as application errors with
 * the run message `code` (its English text kept in `message`), each settled as `settleAttempt`
 * decides (retried while retries remain). A lost agent's attempt ends when its connection was
 * lost, if the server saw that, rather than when its lease ran out: the wait is not run time.
 */
export async function settleAbandoned(
  tx: Db,
  executions: ExecutionRow[],
  code: RunMessageCode,
): Promise<Settled[]> {
  const settled: Settled[] = [];
  const message = runMessageText(code);
  for (const execution of executions) {
    settled.push(
      await settleAttempt(
        tx,
        execution,
        {
          status: 'application_error',
          exit_code: null,
          message,
          code,
          params: {},
        },
        code === 'agent_lost' ? execution.connection_lost_at : null,
      ),
    );
  }
  return settled;
}

/**
 * A result's CTEs after `cur` (the locked executions, each with the result its agent sends:
 * status, exit_code, message, code, params): the attempt ended, what follows decided as in
 * `settleAttempt`, the run's held tasks back to pending, the execution's state (`fin`).
 */
export const settleCur = () => sql`att as (
          update ${A}
             set ${col(A.status)} = case when cur.cancel_requested_at is not null then 'cancelled'
                                         else cur.status end,
                 ${col(A.exit_code)} = cur.exit_code, ${col(A.message)} = cur.message,
                 ${col(A.message_code)} = cur.code, ${col(A.message_params)} = cur.params,
                 ${col(A.ended_at)} = now(), ${col(A.ended_by)} = 'agent'
            from cur
           where ${A.rota_executions_id} = cur.id
             and ${A.attempt} = cur.attempts and ${A.ended_at} is null
          returning ${A.rota_executions_id} as id, ${A.status} as status
        ),
        decided as (
          select att.id, att.status,
                 att.status in ('application_error', 'timeout') and cur.attempts <= cur.retries
                   as requeued,
                 cur.exit_code, cur.message, cur.code, cur.params
            from att join cur on cur.id = att.id
        ),
        released as (${releaseTasksHeldBy(sql`any(array(select id from decided))`)}),
        fin as (
        update ${E}
           set ${col(E.status)} = case when d.requeued then 'queued' else d.status end,
               ${col(E.exit_code)} = d.exit_code, ${col(E.message)} = d.message,
               ${col(E.message_code)} = d.code, ${col(E.message_params)} = d.params,
               ${col(E.lease_expires_at)} = null, ${col(E.run_token_hash)} = null,
               ${col(E.connection_lost_at)} = null,
               ${col(E.ended_at)} = case when d.requeued then null else now() end
          from decided d
         where ${E.rota_executions_id} = d.id
        returning ${executionColumns(E)}, d.requeued
        )`;

/** The result's CTEs (`cur` … `fin`), also run before a claim in `finishAndClaim`. */
export const finishCtes = () => sql`cur as (
          select ${E.rota_executions_id} as id, ${E.attempts} as attempts,
                 ${E.retries} as retries, ${E.cancel_requested_at} as cancel_requested_at,
                 ${sql.placeholder('status')}::text as status,
                 ${sql.placeholder('exit_code')}::integer as exit_code,
                 ${sql.placeholder('message')}::text as message,
                 ${sql.placeholder('code')}::text as code,
                 ${sql.placeholder('params')}::jsonb as params
            from ${E}
           where ${E.rota_executions_id} = ${sql.placeholder('execution')}
             and ${E.rota_clients_id} = ${sql.placeholder('client')}
             and ${E.status} = 'processing' and ${E.attempts} = ${sql.placeholder('attempt')}
             and ${E.rota_nodes_id} = ${sql.placeholder('agent')}
           for update
        ),
        ${settleCur()}`;

const finishStatement = hotStatement<ExecutionRow & { requeued: boolean }>(
  'rota_finish_attempt',
  () => sql`with ${finishCtes()} select * from fin`,
);

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
  const [row] = await finishStatement(db, finishValues(agent, result));
  return row ? settledOf(row) : null;
}

export type FinishedRow = ExecutionRow & { requeued: boolean };

export function settledOf(row: FinishedRow): Settled {
  const { requeued, ...execution } = row;
  return { execution, status: execution.status, requeued };
}

export function finishValues(
  agent: { rota_clients_id: number; rota_nodes_id: number },
  result: AttemptResult & { execution_id: number; attempt: number },
) {
  return {
    execution: result.execution_id,
    client: agent.rota_clients_id,
    attempt: result.attempt,
    agent: agent.rota_nodes_id,
    status: result.status,
    exit_code: result.exit_code,
    message: result.message,
    ...codeOf(result),
  };
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
          select ${A.rota_execution_attempts_id} as id, ${A.ended_by} as ended_by,
                 ${A.late_reported_at} as late_reported_at
            from ${A}
           where ${A.rota_executions_id} = ${result.execution_id} and ${A.attempt} = ${result.attempt}
             and ${A.rota_clients_id} = ${agent.rota_clients_id}
           for update
        ),
        recorded as (
          update ${A}
             set ${col(A.late_status)} = ${result.status}, ${col(A.late_exit_code)} = ${result.exit_code},
                 ${col(A.late_message)} = ${result.message}, ${col(A.late_reported_at)} = now()
            from found
           where ${A.rota_execution_attempts_id} = found.id
             and found.ended_by = 'server' and found.late_reported_at is null
             and ${A.rota_nodes_id} = ${agent.rota_nodes_id}
          returning ${A.rota_execution_attempts_id}
        )
        select found.ended_by, exists (select 1 from recorded) as recorded from found`,
  );
  if (!row) return 'unknown';
  return row.ended_by === 'server' ? 'late' : 'repeat';
}
