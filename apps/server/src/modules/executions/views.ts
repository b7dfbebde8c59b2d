import { sql, type SQL } from 'drizzle-orm';
import { QueryBuilder, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { rotaExecutions } from '../../db/schema/executions.js';

const qb = new QueryBuilder();

/** Read-only: which robot an execution ran (audit records of executions are about it). */
export const executionRobots = qb
  .select({
    rota_executions_id: rotaExecutions.rota_executions_id,
    rota_clients_id: rotaExecutions.rota_clients_id,
    rota_robots_id: rotaExecutions.rota_robots_id,
  })
  .from(rotaExecutions)
  .as('execution_robots');

/** Read-only: an execution's status, agent and times, for pages of other modules (a task's history). */
export const executionSummaries = qb
  .select({
    rota_executions_id: rotaExecutions.rota_executions_id,
    rota_clients_id: rotaExecutions.rota_clients_id,
    rota_nodes_id: rotaExecutions.rota_nodes_id,
    status: rotaExecutions.status,
    started_at: rotaExecutions.started_at,
    ended_at: rotaExecutions.ended_at,
  })
  .from(rotaExecutions)
  .as('execution_summaries');

/** Whether the execution `id` names (a column) is still queued or processing: not final yet. */
export const executionIsLive = (id: AnyPgColumn): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${rotaExecutions}
                        where ${rotaExecutions.rota_executions_id} = ${id}
                          and ${rotaExecutions.status} in ('queued', 'processing'))`;
