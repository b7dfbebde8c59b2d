import { QueryBuilder } from 'drizzle-orm/pg-core';
import { rotaExecutions } from '../../db/schema.js';

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
