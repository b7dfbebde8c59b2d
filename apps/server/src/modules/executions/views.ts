import { QueryBuilder } from 'drizzle-orm/pg-core';
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
