import { sql, type SQL } from 'drizzle-orm';
import { rotaTasks } from '../../db/schema.js';
import { col } from '../../lib/sql-refs.js';

const t = rotaTasks;

/**
 * The tasks a run held go back to pending (its attempt ended without finishing them): a
 * data-modifying CTE body the engine embeds in the statement that settles the attempt, so the
 * run and its tasks change together in one round trip.
 */
export function releaseTasksHeldBy(executionId: SQL | number): SQL {
  return sql`update ${t}
       set ${col(t.status)} = 'pending', ${col(t.rota_executions_id)} = null, ${col(t.updated_at)} = now()
     where ${t.rota_executions_id} = ${executionId} and ${t.status} = 'processing'`;
}
