import { sql, type SQL } from 'drizzle-orm';
import { rotaTasks } from '../../db/schema/tasks.js';
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

/**
 * How many tasks of the robot `robotId` names (a column or a value) of client `clientId` are
 * due at `now` (the app's clock): pending, not expired, not postponed past now. Counts at most
 * `cap` (a scalar subquery the queue trigger compares with its bounds; the cap keeps a queue
 * of 100,000 tasks from being counted whole every second).
 */
export function pendingDueTaskCount(
  clientId: SQL | number,
  robotId: SQL | number,
  now: Date,
  cap: SQL | number,
): SQL<number> {
  const at = sql`${now.toISOString()}::timestamptz`;
  return sql<number>`(select count(*)::int from (
      select 1 from ${t}
       where ${t.rota_robots_id} = ${robotId} and ${t.rota_clients_id} = ${clientId}
         and ${t.status} = 'pending' and ${t.expiration_date} > ${at}
         and (${t.postpone_until} is null or ${t.postpone_until} <= ${at})
       limit ${cap}) due)`;
}
