import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  runMessageText,
  type AgentFinish,
  type ExecutionStatus,
  type ExecutionTrigger,
  type RunMessageCode,
  type RunMessageParams,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaExecutionAttempts, rotaExecutionLogs, rotaExecutions } from '../../db/schema.js';
import { packageSummaries } from '../robot-versions/views.js';
import { robotSummaries } from '../robots/views.js';
import {
  planDueRuns,
  type DueCalendar,
  type DueMove,
  type DueRow,
} from '../schedulings/due-runs.js';
import { calendarsOf, lockDueSchedulings, moveDueSchedulings } from '../schedulings/statements.js';
import { releaseTasksHeldBy } from '../tasks/statements.js';
import { insertMissedRunEvents } from '../alerts/statements.js';
import { schedulingSummaries } from '../schedulings/views.js';
import { col, tableAs } from '../../lib/sql-refs.js';
import { hotStatement, rowsOf } from '../../lib/sql-rows.js';

const E = rotaExecutions;
const A = rotaExecutionAttempts;

/** The columns of an execution the engine decides with, as the drivers answer them. */
export type ExecutionRow = Pick<
  typeof rotaExecutions.$inferSelect,
  | 'rota_executions_id'
  | 'rota_clients_id'
  | 'rota_robots_id'
  | 'rota_schedulings_id'
  | 'rota_nodes_id'
  | 'attempts'
  | 'retries'
  | 'timeout_seconds'
  | 'cancel_requested_at'
> & { status: ExecutionStatus };

/** The same columns of any alias of rota_executions, for `returning` and `select` lists. */
const executionColumns = (e: typeof rotaExecutions) =>
  sql.join(
    [
      e.rota_executions_id,
      e.rota_clients_id,
      e.rota_robots_id,
      e.rota_schedulings_id,
      e.rota_nodes_id,
      e.status,
      e.attempts,
      e.retries,
      e.timeout_seconds,
      e.cancel_requested_at,
    ].map((c) => sql`${c} as ${col(c)}`),
    sql`, `,
  );

export interface NewExecution {
  rota_clients_id: number;
  rota_robots_id: number;
  rota_schedulings_id: number | null;
  vm_ids: number[] | null;
  trigger: ExecutionTrigger;
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
    sql`insert into ${E}
          (${col(E.rota_clients_id)}, ${col(E.rota_robots_id)}, ${col(E.rota_schedulings_id)},
           ${col(E.vm_ids)}, ${col(E.trigger)}, ${col(E.priority)}, ${col(E.timeout_seconds)},
           ${col(E.retries)}, ${col(E.sleep_seconds)}, ${col(E.created_by)})
        values (${run.rota_clients_id}, ${run.rota_robots_id}, ${run.rota_schedulings_id}, ${vmIds},
                ${run.trigger}, ${run.priority}, ${run.timeout_seconds}, ${run.retries},
                ${run.sleep_seconds}, ${run.created_by})
        returning ${E.rota_executions_id} as id`,
  );
  return row!.id;
}

export type ClaimedRow = ExecutionRow &
  Pick<typeof rotaExecutions.$inferSelect, 'rota_robot_versions_id'> & {
    robot_name: string;
    executor: string;
    remote_root: string | null;
    version: string | null;
    sha256: string | null;
    /** bigint: a string from node-postgres, a number from PGlite. */
    size_bytes: string | number | null;
    format: 'zip' | 'tar.gz' | null;
    /** Seconds from queued_at to this claim, by the database's clock (the claim latency). */
    waited_seconds: number;
  };

const e = alias(rotaExecutions, 'e');
const p = alias(rotaExecutions, 'p');
const a = alias(rotaExecutionAttempts, 'a');
const r = robotSummaries;
const v = packageSummaries;

type ClaimedWithToken = ClaimedRow & { token_hash: string };

/**
 * What a claim by an agent on VM `vm` of client `client` may take of the executions `e`: its
 * client's queued runs that may go to that VM, but a scheduling's run that would start on a VM
 * its last run left less than `sleep` seconds ago.
 */
const claimable = (client: SQL, vm: SQL) => sql`${e.rota_clients_id} = ${client}
             and ${e.status} = 'queued'
             and (${e.vm_ids} is null or ${vm} = any(${e.vm_ids}))
             and (${e.sleep_seconds} = 0 or ${e.rota_schedulings_id} is null or not exists (
                   select 1 from ${tableAs(p)}
                    where ${p.rota_schedulings_id} = ${e.rota_schedulings_id}
                      and ${p.rota_vms_id} = ${vm}
                      and ${p.ended_at} > now() - make_interval(secs => ${e.sleep_seconds})))`;

/** The claim's order: the highest priority, then the oldest. */
const queueOrder = sql`${e.priority} desc nulls last, ${e.queued_at}, ${e.rota_executions_id}`;

/**
 * The runs of `picks` (id, k) claimed for the k-th taker (`agent(k)` on `vm(k)`, with the k-th
 * hash of `tokens`): `claimed`, their attempt rows, and `picked`, what the agent needs of the
 * robot and its current version.
 */
const claimPicks = (agent: (k: SQL) => SQL, vm: (k: SQL) => SQL) => sql`claimed as (
          update ${E}
             set ${col(E.status)} = 'processing',
                 ${col(E.attempts)} = ${E.attempts} + 1,
                 ${col(E.rota_nodes_id)} = ${agent(sql`picks.k`)},
                 ${col(E.rota_vms_id)} = ${vm(sql`picks.k`)},
                 ${col(E.started_at)} = coalesce(${E.started_at}, now()),
                 ${col(E.lease_expires_at)} = now() + make_interval(secs => ${sql.placeholder('lease')}),
                 ${col(E.run_token_hash)} = (${sql.placeholder('tokens')}::text[])[picks.k],
                 ${col(E.last_activity_at)} = now(), ${col(E.stalled)} = false,
                 ${col(E.progress_percent)} = null, ${col(E.progress_message)} = null,
                 ${col(E.rota_robot_versions_id)} = (select ${r.current_version_id} from ${r}
                                                      where ${r.rota_robots_id} = ${E.rota_robots_id})
            from picks
           where ${E.rota_executions_id} = picks.id
          returning ${executionColumns(E)}, ${E.rota_robot_versions_id} as rota_robot_versions_id,
                    ${E.run_token_hash} as token_hash, picks.k as k,
                    extract(epoch from now() - ${E.queued_at})::float8 as waited_seconds
        ),
        attempt as (
          insert into ${A}
                 (${col(A.rota_clients_id)}, ${col(A.rota_executions_id)}, ${col(A.attempt)},
                  ${col(A.rota_nodes_id)}, ${col(A.rota_vms_id)}, ${col(A.run_token_hash)})
          select rota_clients_id, rota_executions_id, attempts, ${agent(sql`k`)}, ${vm(sql`k`)},
                 token_hash
            from claimed
          on conflict do nothing
        ),
        picked as (
        select c.*, ${r.name} as robot_name, ${r.executor} as executor,
               ${r.remote_root} as remote_root, ${v.version} as version, ${v.sha256} as sha256,
               ${v.size_bytes} as size_bytes, ${v.format} as format
          from claimed c
          join ${r} on ${r.rota_robots_id} = c.rota_robots_id
          left join ${v} on ${v.rota_robot_versions_id} = c.rota_robot_versions_id
        )`;

/**
 * Takes the next executions (up to `max`) this agent's VM may run, in queue order. SKIP LOCKED
 * lets every instance claim at once without two taking the same row. One statement (atomic on
 * its own): the claims, their attempt rows, and what the agent needs of the robot and its
 * current version. Each run gets its own run token: the n-th row taken the n-th hash of
 * `tokens`. These are the claim's CTEs (`next` … `picked`), also run after a result in
 * `finishAndClaimRuns`.
 */
const claimCtes = (limit: SQL) => sql`next as (
          select ${e.rota_executions_id} as id
            from ${tableAs(e)}
           where ${claimable(sql`${sql.placeholder('client')}`, sql`${sql.placeholder('vm')}`)}
           order by ${queueOrder}
           limit ${limit}
           for update skip locked
        ),
        picks as (select id, row_number() over (order by id) as k from next),
        ${claimPicks(
          () => sql`${sql.placeholder('agent')}`,
          () => sql`${sql.placeholder('vm')}`,
        )}`;

/**
 * A LIMIT of one as a constant, not a parameter: with `limit $max` PostgreSQL's generic plan
 * looks dearer than the custom ones and every execution is planned again (about as long as it
 * runs); the usual claim of one run keeps a cached plan.
 */
const claimLimits = { one: sql`1`, many: sql`${sql.placeholder('max')}` };

const claimStatements = {
  one: hotStatement<ClaimedWithToken>(
    'rota_claim_one',
    () => sql`with ${claimCtes(claimLimits.one)} select * from picked`,
  ),
  many: hotStatement<ClaimedWithToken>(
    'rota_claim_runs',
    () => sql`with ${claimCtes(claimLimits.many)} select * from picked`,
  ),
};

/**
 * Claims up to `runTokenHashes.length` runs for this agent, the n-th taken with the n-th hash
 * (`token_hash` says which each row got).
 */
export async function claimRuns(
  db: Db,
  agent: { rota_clients_id: number; rota_nodes_id: number; rota_vms_id: number },
  runTokenHashes: readonly string[],
  leaseSeconds: number,
): Promise<ClaimedWithToken[]> {
  if (runTokenHashes.length === 0) return [];
  return claimStatements[runTokenHashes.length === 1 ? 'one' : 'many'](db, {
    client: agent.rota_clients_id,
    vm: agent.rota_vms_id,
    agent: agent.rota_nodes_id,
    lease: leaseSeconds,
    max: runTokenHashes.length,
    tokens: `{${runTokenHashes.join(',')}}`,
  });
}

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
function codeOf(result: AttemptResult): { code: string | null; params: string | null } {
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
): Promise<Settled> {
  const cancelled = execution.cancel_requested_at !== null || result.status === 'cancelled';
  const attemptStatus: ExecutionStatus = cancelled ? 'cancelled' : result.status;
  const retryable = attemptStatus === 'application_error' || attemptStatus === 'timeout';
  const requeued = retryable && execution.attempts <= execution.retries;
  const status: ExecutionStatus = requeued ? 'queued' : attemptStatus;
  const coded = codeOf(result);
  // One statement: the attempt's end, the run's held tasks back to pending, the run's state.
  await tx.execute(
    sql`with ended_attempt as (
          update ${A}
             set ${col(A.status)} = ${attemptStatus}, ${col(A.exit_code)} = ${result.exit_code},
                 ${col(A.message)} = ${result.message}, ${col(A.ended_at)} = now(),
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
               ${col(E.run_token_hash)} = null,
               ${col(E.ended_at)} = ${requeued ? sql`null` : sql`now()`}
         where ${E.rota_executions_id} = ${execution.rota_executions_id}`,
  );
  return { execution, status, requeued };
}

/**
 * Attempts whose agent is gone (lost, or stopped without them) end as application errors with
 * the run message `code` (its English text kept in `message`), each settled as `settleAttempt`
 * decides (retried while retries remain).
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
      await settleAttempt(tx, execution, {
        status: 'application_error',
        exit_code: null,
        message,
        code,
        params: {},
      }),
    );
  }
  return settled;
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

/**
 * A result's CTEs after `cur` (the locked executions, each with the result its agent sends:
 * status, exit_code, message, code, params): the attempt ended, what follows decided as in
 * `settleAttempt`, the run's held tasks back to pending, the execution's state (`fin`).
 */
const settleCur = () => sql`att as (
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
               ${col(E.ended_at)} = case when d.requeued then null else now() end
          from decided d
         where ${E.rota_executions_id} = d.id
        returning ${executionColumns(E)}, d.requeued
        )`;

/** The result's CTEs (`cur` … `fin`), also run before a claim in `finishAndClaim`. */
const finishCtes = () => sql`cur as (
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
 * A result and the agent's next claim in one statement (one round trip, one commit): the
 * runs taken are other queued rows (a run this result sends back to the queue is not among
 * them: the statement sees the queue as it was).
 */
const finishClaimSql = (limit: SQL) => sql`with ${finishCtes()}, ${claimCtes(limit)}
        select (select row_to_json(f) from fin f) as finished,
               (select coalesce(json_agg(p), '[]'::json) from picked p) as claimed`;
const finishClaimStatements = {
  one: hotStatement<{ finished: unknown; claimed: unknown }>('rota_finish_claim_one', () =>
    finishClaimSql(claimLimits.one),
  ),
  many: hotStatement<{ finished: unknown; claimed: unknown }>('rota_finish_claim', () =>
    finishClaimSql(claimLimits.many),
  ),
};

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

type FinishedRow = ExecutionRow & { requeued: boolean };

function settledOf(row: FinishedRow): Settled {
  const { requeued, ...execution } = row;
  return { execution, status: execution.status, requeued };
}

function finishValues(
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
 * `finishCurrentAttempt`, then `claimRuns` for the same agent, in one statement: answers what
 * each would (`settled` null when the result was not counted).
 */
export async function finishAndClaimRuns(
  db: Db,
  agent: { rota_clients_id: number; rota_nodes_id: number; rota_vms_id: number },
  result: AttemptResult & { execution_id: number; attempt: number },
  runTokenHashes: readonly string[],
  leaseSeconds: number,
): Promise<{ settled: Settled | null; claimed: ClaimedWithToken[] }> {
  const statement = finishClaimStatements[runTokenHashes.length === 1 ? 'one' : 'many'];
  const [row] = await statement(db, {
    ...finishValues(agent, result),
    vm: agent.rota_vms_id,
    lease: leaseSeconds,
    max: runTokenHashes.length,
    tokens: `{${runTokenHashes.join(',')}}`,
  });
  // json columns: parsed by node-postgres; PGlite may hand the text.
  const parse = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
  const finished = parse(row?.finished) as FinishedRow | null;
  const claimed = (parse(row?.claimed) ?? []) as ClaimedWithToken[];
  return { settled: finished ? settledOf(finished) : null, claimed };
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
          update ${E}
             set ${col(E.status)} = 'queued', ${col(E.attempts)} = ${E.attempts} - 1,
                 ${col(E.rota_nodes_id)} = null, ${col(E.rota_vms_id)} = null,
                 ${col(E.lease_expires_at)} = null, ${col(E.run_token_hash)} = null,
                 ${col(E.started_at)} = case when ${E.attempts} = 1 then null else ${E.started_at} end
           where ${E.rota_executions_id} = ${executionId} and ${E.attempts} = ${attempt}
             and ${E.status} = 'processing' and ${E.rota_nodes_id} = ${agentId}
          returning ${E.rota_executions_id} as id
        ),
        forgotten as (
          delete from ${tableAs(a)} using released
           where ${a.rota_executions_id} = released.id and ${a.attempt} = ${attempt}
        )
        select id from released`,
  );
  return released.length > 0;
}

/** Whether the client has any queued run at all, whatever VM or time it waits for. */
export async function hasQueuedRuns(db: Db, clientId: number): Promise<boolean> {
  const [row] = await rowsOf<{ queued: boolean }>(
    db,
    sql`select exists (select 1 from ${E}
                        where ${E.rota_clients_id} = ${clientId} and ${E.status} = 'queued'
                      ) as queued`,
  );
  return row?.queued === true;
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

export async function vmIdsOfExecution(db: Db, id: number): Promise<number[] | null> {
  const [row] = await db.select({ vm_ids: E.vm_ids }).from(E).where(eq(E.rota_executions_id, id));
  return row?.vm_ids ?? null;
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
export async function stopRequestedOf(db: Db, id: number): Promise<boolean> {
  const [row] = await db
    .select({ stop: sql<boolean>`${E.cancel_requested_at} is not null` })
    .from(E)
    .where(eq(E.rota_executions_id, id));
  return row?.stop ?? false;
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

/**
 * The scheduler, in one transaction of three statements: lock the interval and cron schedulings
 * due at `now` (SKIP LOCKED), decide each in JS (its next occurrence, its calendar, missed runs:
 * schedulings/due-runs.ts), then store every next run and insert the runs of those that run in
 * one statement: one run each, of an active robot, unless the scheduling's previous run still
 * waits in the queue.
 */
export async function queueDueSchedulings(db: Db, now: Date, batch: number) {
  const q = alias(rotaExecutions, 'q');
  const r = robotSummaries;
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const due = await rowsOf<DueRow>(tx, lockDueSchedulings(now, batch));
    if (due.length === 0) return [];
    const calendarIds = [
      ...new Set(due.flatMap((row) => (row.calendar_id === null ? [] : [row.calendar_id]))),
    ];
    const calendars =
      calendarIds.length === 0 ? [] : await rowsOf<DueCalendar>(tx, calendarsOf(calendarIds));
    const moves = planDueRuns(due, calendars, now);
    const queued = await rowsOf<{
      id: number;
      client: number;
      robot: number;
      vm_ids: number[] | null;
      scheduling: number;
    }>(
      tx,
      sql`with moved as (${moveDueSchedulings(moves)})
          insert into ${E}
            (${col(E.rota_clients_id)}, ${col(E.rota_robots_id)}, ${col(E.rota_schedulings_id)},
             ${col(E.vm_ids)}, ${col(E.trigger)}, ${col(E.priority)}, ${col(E.timeout_seconds)},
             ${col(E.retries)}, ${col(E.sleep_seconds)})
          select m.rota_clients_id, m.rota_robots_id, m.rota_schedulings_id, m.vm_ids, 'schedule',
                 m.priority, m.timeout_minutes * 60, m.retries, m.sleep
            from moved m
            join ${r} on ${r.rota_robots_id} = m.rota_robots_id and ${r.active}
           where m.run
             and not exists (select 1 from ${tableAs(q)}
                              where ${q.rota_schedulings_id} = m.rota_schedulings_id
                                and ${q.status} = 'queued')
          returning ${E.rota_executions_id} as id, ${E.rota_clients_id} as client,
                    ${E.rota_robots_id} as robot, ${E.vm_ids} as vm_ids,
                    ${E.rota_schedulings_id} as scheduling`,
    );
    await recordMissedRuns(tx, moves, queued, now);
    return queued.map(({ scheduling: _, ...run }) => run);
  });
}

/** One `scheduling.missed` alert event per occurrence found late, in the scheduler's transaction. */
async function recordMissedRuns(
  tx: Db,
  moves: readonly DueMove[],
  queued: readonly { scheduling: number }[],
  now: Date,
) {
  const missed = moves.filter((m) => m.missed);
  if (missed.length === 0) return;
  const ran = new Set(queued.map((q) => q.scheduling));
  const owners = await tx
    .select({
      id: schedulingSummaries.rota_schedulings_id,
      client: schedulingSummaries.rota_clients_id,
      robot: schedulingSummaries.rota_robots_id,
    })
    .from(schedulingSummaries)
    .where(
      inArray(
        schedulingSummaries.rota_schedulings_id,
        missed.map((m) => m.id),
      ),
    );
  const ownerOf = new Map(owners.map((o) => [o.id, o]));
  await tx.execute(
    insertMissedRunEvents(
      missed.flatMap((m) => {
        const owner = ownerOf.get(m.id);
        return owner
          ? [
              {
                rota_clients_id: owner.client,
                rota_robots_id: owner.robot,
                rota_schedulings_id: m.id,
                due_at: m.missed!.due_at,
                missed_runs: m.missed!.missed_runs,
                ran: ran.has(m.id),
              },
            ]
          : [];
      }),
      now,
    ),
  );
}

/** The processing run a robot API token belongs to (its current attempt's token). */
export async function findRunByToken(db: Db, runTokenHash: string) {
  const [run] = await db
    .select({
      rota_executions_id: E.rota_executions_id,
      rota_clients_id: E.rota_clients_id,
      rota_robots_id: E.rota_robots_id,
    })
    .from(E)
    .where(and(eq(E.run_token_hash, runTokenHash), eq(E.status, 'processing')));
  return run;
}

/* ---------- Results and next claims of several agents in one statement ---------- */

/** One agent's result and the one run it asks for next, as `finishAndClaimRuns` takes them. */
export interface FinishClaimAsk {
  agent: { rota_clients_id: number; rota_nodes_id: number; rota_vms_id: number };
  result: AttemptResult & { execution_id: number; attempt: number };
  /** The run token's hash for the run it may be handed. */
  tokenHash: string;
}

const f = alias(rotaExecutions, 'f');

/**
 * The result CTEs of `finishCtes` for every row of `input` (one per agent, distinct
 * executions): the same decisions, the same row locks, in one pass.
 */
const batchFinishCtes = () => sql`input as (
          select * from jsonb_to_recordset(${sql.placeholder('finishes')}::jsonb)
                   as i(execution integer, client integer, attempt integer, agent integer,
                        status text, exit_code integer, message text, code text, params jsonb)
        ),
        cur as (
          select ${f.rota_executions_id} as id, ${f.attempts} as attempts, ${f.retries} as retries,
                 ${f.cancel_requested_at} as cancel_requested_at, i.status, i.exit_code,
                 i.message, i.code, i.params
            from input i
            join ${tableAs(f)} on ${f.rota_executions_id} = i.execution
                             and ${f.rota_clients_id} = i.client and ${f.status} = 'processing'
                             and ${f.attempts} = i.attempt and ${f.rota_nodes_id} = i.agent
           for update of ${sql.identifier('f')}
        ),
        ${settleCur()}`;

/**
 * A text as node-postgres sends a text parameter (a lone surrogate as U+FFFD): inside the JSON
 * parameter PostgreSQL would refuse the escaped surrogate and fail every agent's result with it.
 */
const wellFormed = (text: string | null) =>
  text === null ? null : (text as unknown as { toWellFormed(): string }).toWellFormed();

/** The k-th agent's value of an integer array placeholder (`k` a constant or a column). */
const nth = (name: string, k: number | SQL) =>
  sql`(${sql.placeholder(name)}::integer[])[${typeof k === 'number' ? sql.raw(String(k)) : k}]`;

/**
 * `picks` (id, k): one run for each of `count` agents, the claim of `claimCtes` once per agent
 * (its client, its VM, its scheduling gaps), each passing over the runs the agents before it
 * took. SKIP LOCKED skips what other statements hold, not this statement's own locks, hence the
 * exclusions.
 */
const eachAgentPicks = (count: number) => {
  const ctes: SQL[] = [];
  for (let k = 1; k <= count; k += 1) {
    // taken_k: the runs next_1 … next_k took, so each claim looks past one list only.
    const taken =
      k === 1
        ? sql``
        : sql` and not exists (select 1 from ${sql.identifier(`taken_${k - 1}`)} t
                                where t.id = ${e.rota_executions_id})`;
    ctes.push(sql`${sql.identifier(`next_${k}`)} as (
          select ${e.rota_executions_id} as id, ${sql.raw(String(k))} as k
            from ${tableAs(e)}
           where ${claimable(nth('clients', k), nth('vms', k))}${taken}
           order by ${queueOrder}
           limit 1
           for update skip locked
        )`);
    if (k < count)
      ctes.push(
        k === 1
          ? sql`taken_1 as (select id from next_1)`
          : sql`${sql.identifier(`taken_${k}`)} as (
          select id from ${sql.identifier(`taken_${k - 1}`)}
          union all select id from ${sql.identifier(`next_${k}`)})`,
      );
  }
  const union = sql.join(
    Array.from(
      { length: count },
      (_, j) => sql`select id, k from ${sql.identifier(`next_${j + 1}`)}`,
    ),
    sql` union all `,
  );
  return sql`${sql.join(ctes, sql`, `)}, picks as (${union})`;
};

/**
 * `picks` for the usual group: agents of one client, and the first `count` runs of its queue
 * free to run on any VM with no scheduling gap to keep (as the statement's snapshot shows them,
 * locks aside). Then one scan takes the first free runs no one else holds, in queue order, as one
 * claim after another would. `fast` says whether it applied; when not, nothing is picked, and
 * `eachAgentPicks` runs in a statement of its own. Neither locks a run it does not take (another
 * agent's claim would have passed it over).
 */
const queueOrderPicks = (count: number) => {
  const freeRun = sql`${e.vm_ids} is null
                 and (${e.sleep_seconds} = 0 or ${e.rota_schedulings_id} is null)`;
  const first = sql`order by ${queueOrder} limit ${sql.raw(String(count))}`;
  return sql`peek as (
          select ${freeRun} as free
            from ${tableAs(e)}
           where ${e.rota_clients_id} = ${sql.placeholder('solo_client')}
             and ${e.status} = 'queued'
           ${first}
        ),
        fast as (
          select ${sql.placeholder('solo_client')}::integer <> 0
                 and coalesce(bool_and(free), true) as ok
            from peek
        ),
        cand as (
          select ${e.rota_executions_id} as id, ${e.priority} as priority,
                 ${e.queued_at} as queued_at
            from ${tableAs(e)}
           where ${e.rota_clients_id} = ${sql.placeholder('solo_client')}
             and ${e.status} = 'queued' and ${freeRun}
           ${first}
           for update skip locked
        ),
        picks as (
          select id, row_number() over (order by priority desc nulls last, queued_at, id) as k
            from cand
           where (select ok from fast)
        )`;
};

/** The picks claimed for the k-th agent of the group (`claimed` … `picked`). */
const groupClaimPicks = () =>
  claimPicks(
    (k) => nth('agents', k),
    (k) => nth('vms', k),
  );

/**
 * The most agents one statement answers; more wait for the next. Statements are written per
 * group size (their claims and LIMITs are constants, so each keeps a generic plan).
 */
export const FINISH_CLAIM_BATCH_MAX = 16;

type GroupRow = { finished?: unknown; claimed: unknown; fast?: boolean };
const groupStatements = new Map<string, ReturnType<typeof hotStatement<GroupRow>>>();
function groupStatement(kind: 'finish' | 'claim', count: number) {
  const key = `${kind}${count}`;
  let statement = groupStatements.get(key);
  if (!statement) {
    statement = hotStatement<GroupRow>(
      kind === 'finish' ? `rota_finish_claim_x${count}` : `rota_claim_each_x${count}`,
      () =>
        kind === 'finish'
          ? sql`with ${batchFinishCtes()}, ${queueOrderPicks(count)}, ${groupClaimPicks()}
        select (select coalesce(json_agg(f), '[]'::json) from fin f) as finished,
               (select coalesce(json_agg(p), '[]'::json) from picked p) as claimed,
               (select ok from fast) as fast`
          : sql`with ${eachAgentPicks(count)}, ${groupClaimPicks()}
        select coalesce(json_agg(p), '[]'::json) as claimed from picked p`,
    );
    groupStatements.set(key, statement);
  }
  return statement;
}

/**
 * `finishAndClaimRuns` with one run asked for, for several agents in one statement (one round
 * trip and one commit for all): each answer as that function would give it. The results must
 * name distinct executions (a repeat of one waits for a statement of its own).
 */
export async function finishAndClaimEach(
  db: Db,
  asks: readonly FinishClaimAsk[],
  leaseSeconds: number,
): Promise<{ settled: Settled | null; claimed: ClaimedWithToken[] }[]> {
  if (asks.length > FINISH_CLAIM_BATCH_MAX)
    throw new Error(`at most ${FINISH_CLAIM_BATCH_MAX} results a statement`);
  const finishes = asks.map(({ agent, result }) => {
    const coded = codeOf(result);
    return {
      execution: result.execution_id,
      client: agent.rota_clients_id,
      attempt: result.attempt,
      agent: agent.rota_nodes_id,
      status: result.status,
      exit_code: result.exit_code,
      message: wellFormed(result.message),
      code: coded.code,
      params: result.code ? (result.params ?? {}) : null,
    };
  });
  const ints = (values: number[]) => `{${values.map((n) => Math.trunc(n)).join(',')}}`;
  const values = {
    finishes: JSON.stringify(finishes),
    clients: ints(asks.map((ask) => ask.agent.rota_clients_id)),
    vms: ints(asks.map((ask) => ask.agent.rota_vms_id)),
    agents: ints(asks.map((ask) => ask.agent.rota_nodes_id)),
    tokens: `{${asks.map((ask) => ask.tokenHash).join(',')}}`,
    solo_client: asks.every((ask) => ask.agent.rota_clients_id === asks[0]!.agent.rota_clients_id)
      ? asks[0]!.agent.rota_clients_id
      : 0,
    lease: leaseSeconds,
  };
  const [row] = await groupStatement('finish', asks.length)(db, values);
  // json columns: parsed by node-postgres; PGlite may hand the text.
  const parse = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
  const finished = (parse(row?.finished) ?? []) as FinishedRow[];
  let claimed = (parse(row?.claimed) ?? []) as (ClaimedWithToken & { k: number })[];
  if (row && !row.fast) {
    // Runs the queue order cannot hand out blindly (VM limits, scheduling gaps, several
    // clients): each agent's own claim, the results being recorded already.
    // Should it fail, the agents get no run now and ask again (their results stand).
    const [each] = await groupStatement('claim', asks.length)(db, values).catch(() => []);
    claimed = (parse(each?.claimed) ?? []) as (ClaimedWithToken & { k: number })[];
  }
  const settledById = new Map(finished.map((r) => [r.rota_executions_id, settledOf(r)]));
  return asks.map((ask, i) => ({
    settled: settledById.get(ask.result.execution_id) ?? null,
    claimed: claimed
      .filter((c) => c.k === i + 1)
      .map(({ k: _k, ...run }) => run as ClaimedWithToken),
  }));
}
