import { sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type ExecutionStatus, type ExecutionTrigger } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaExecutionAttempts, rotaExecutions } from '../../db/schema/executions.js';
import { packageSummaries } from '../robot-versions/views.js';
import { requiredLabelsOf, robotSummaries } from '../robots/views.js';
import { col } from '../../lib/sql-refs.js';
import { rowsOf } from '../../lib/sql-rows.js';

export const E = rotaExecutions;
export const A = rotaExecutionAttempts;

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
  | 'connection_lost_at'
> & { status: ExecutionStatus };

/** The same columns of any alias of rota_executions, for `returning` and `select` lists. */
export const executionColumns = (e: typeof rotaExecutions) =>
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
      e.connection_lost_at,
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
  /** An attended run: the user whose attended agent alone may take it. */
  attended_by?: number | null;
  /**
   * The labels it needs: the robot's required ones and its scheduling's or Run now's (the insert
   * joins the robot's required labels as its row holds them then, whatever this says).
   */
  labels: readonly string[];
}

/**
 * The labels a run of `robot` (a column or a value) needs, fixed as it is queued: the robot's
 * required labels and `extra` (a text[]), sorted, each once.
 */
export const labelsAtQueue = (robot: SQL | unknown, extra: SQL) =>
  sql`array(select l
              from (select distinct unnest(coalesce(${requiredLabelsOf(robot)}, '{}'::text[]) || ${extra}) as l) d
             order by l collate "C")`;

export async function insertExecution(db: Db, run: NewExecution): Promise<number> {
  const vmIds = run.vm_ids ? sql`${`{${run.vm_ids.join(',')}}`}::integer[]` : sql`null`;
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`insert into ${E}
          (${col(E.rota_clients_id)}, ${col(E.rota_robots_id)}, ${col(E.rota_schedulings_id)},
           ${col(E.vm_ids)}, ${col(E.trigger)}, ${col(E.priority)}, ${col(E.timeout_seconds)},
           ${col(E.retries)}, ${col(E.sleep_seconds)}, ${col(E.created_by)}, ${col(E.attended_by)},
           ${col(E.labels)})
        values (${run.rota_clients_id}, ${run.rota_robots_id}, ${run.rota_schedulings_id}, ${vmIds},
                ${run.trigger}, ${run.priority}, ${run.timeout_seconds}, ${run.retries},
                ${run.sleep_seconds}, ${run.created_by}, ${run.attended_by ?? null},
                ${labelsAtQueue(run.rota_robots_id, sql`${`{${run.labels.join(',')}}`}::text[]`)})
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
    /** The version's signature and the trusted key (PEM) it was checked against at upload. */
    signature: string | null;
    signer_key: string | null;
    /** Seconds from queued_at to this claim, by the database's clock (the claim latency). */
    waited_seconds: number;
  };

export const e = alias(rotaExecutions, 'e');
export const p = alias(rotaExecutions, 'p');
export const a = alias(rotaExecutionAttempts, 'a');
export const r = robotSummaries;
export const v = packageSummaries;

export type ClaimedWithToken = ClaimedRow & { token_hash: string };
