/**
 * A client with a year of history for bench/history.ts: 200 robots, 20 agents, `executions`
 * runs queued over the last 365 days (mostly successes, 2 % application errors, 1 % business
 * errors, the last few hundred still queued), one attempt and five log lines per ended run, and
 * a task per two runs. Set-based statements (generate_series in the database, a quarter of a
 * million runs each), never row by row.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.js';
import { seedDatabase } from '../apps/server/src/db/seed.js';

const ROBOTS = 200;
const AGENTS = 20;
const CHUNK = 250_000;
const YEAR_SECONDS = 365 * 86_400;

export async function seedHistory(database: Database, executions: number, password: string) {
  const { db } = database;
  const one = async <T>(statement: ReturnType<typeof sql>) =>
    ((await db.execute(statement)) as unknown as { rows: T[] }).rows[0]!;
  await database.migrate();
  await seedDatabase(db, {
    adminAccess: 'admin',
    adminEmail: 'admin@localhost',
    adminPassword: password,
  });
  const { c } = await one<{ c: number }>(
    sql`select rota_clients_id as c from rota_clients order by rota_clients_id limit 1`,
  );
  // A year of history is kept: the nightly retention would otherwise prune what is past 90 days.
  await db.execute(sql`update rota_clients set retention_days = 3650 where rota_clients_id = ${c}`);
  await db.execute(sql`
    insert into rota_robots (rota_clients_id, name, description, executor, remote_root, active)
    select ${c}, 'Robot ' || g, 'Robot ' || g || ' of the history bench', 'node main.js', 'C:\\robots\\' || g, true
    from generate_series(1, ${ROBOTS}) g`);
  await db.execute(sql`
    insert into rota_vms (rota_clients_id, name, hostname, os)
    select ${c}, 'VM ' || g, 'vm-' || g || '.corp.local', 'windows' from generate_series(1, ${AGENTS}) g`);
  await db.execute(sql`
    insert into rota_nodes (rota_clients_id, name, rota_vms_id, token_hash, last_seen_at, online)
    select ${c}, 'Agent ' || v.rota_vms_id, v.rota_vms_id, md5('t' || v.rota_vms_id) || md5('u' || v.rota_vms_id), now(), false
    from rota_vms v where v.rota_clients_id = ${c}`);
  const ids = await one<{ robot: number; vm: number; node: number }>(sql`
    select (select min(rota_robots_id) from rota_robots) as robot, (select min(rota_vms_id) from rota_vms) as vm,
           (select min(rota_nodes_id) from rota_nodes) as node`);
  // The newest few hundred runs wait in the queue; the rest ended a second to a minute after.
  const waiting = Math.min(300, Math.floor(executions / 100));
  for (let from = 1; from <= executions; from += CHUNK) {
    const to = Math.min(executions, from + CHUNK - 1);
    await db.execute(sql`
      insert into rota_executions (rota_clients_id, rota_robots_id, rota_vms_id, rota_nodes_id, status, trigger,
             priority, timeout_seconds, attempts, exit_code, queued_at, started_at, ended_at)
      select ${c}, ${ids.robot} + g % ${ROBOTS}, w.vm, w.node, w.status, 'manual', 50, 300, w.attempts, w.exit_code,
             q.at, case when w.attempts > 0 then q.at + interval '1 second' end,
             case when w.attempts > 0 then q.at + (1 + g % 60) * interval '1 second' end
        from generate_series(${from}::int, ${to}::int) g
        cross join lateral (select now() - ((${executions} - g) * ${YEAR_SECONDS / executions}::float8 + 5) * interval '1 second' as at) q
        cross join lateral (
          select case when g > ${executions - waiting} then 'queued'
                      when g % 50 = 0 then 'application_error' when g % 97 = 0 then 'business_error'
                      else 'success' end as status,
                 case when g > ${executions - waiting} then 0 else 1 end as attempts,
                 case when g > ${executions - waiting} then null when g % 50 = 0 then 1 when g % 97 = 0 then 3 else 0 end as exit_code,
                 case when g > ${executions - waiting} then null else ${ids.vm} + g % ${AGENTS} end as vm,
                 case when g > ${executions - waiting} then null else ${ids.node} + g % ${AGENTS} end as node) w`);
  }
  const { lo, hi } = await one<{ lo: number; hi: number }>(
    sql`select min(rota_executions_id) as lo, max(rota_executions_id) as hi from rota_executions`,
  );
  for (let from = lo; from <= hi; from += CHUNK) {
    const to = Math.min(hi, from + CHUNK - 1);
    await db.execute(sql`
      insert into rota_execution_attempts (rota_clients_id, rota_executions_id, attempt, rota_nodes_id, rota_vms_id,
             status, exit_code, started_at, ended_at, ended_by)
      select rota_clients_id, rota_executions_id, 1, rota_nodes_id, rota_vms_id, status, exit_code, started_at, ended_at, 'agent'
        from rota_executions where rota_executions_id between ${from} and ${to} and attempts > 0`);
    await db.execute(sql`
      insert into rota_execution_logs (rota_clients_id, rota_executions_id, attempt, seq, stream, line, at)
      select e.rota_clients_id, e.rota_executions_id, 1, s, 'stdout',
             'step ' || s || ' of run ' || e.rota_executions_id || ': 42 invoices read, 0 rejected', e.started_at + s * interval '100 ms'
        from rota_executions e cross join generate_series(1, 5) s
       where e.rota_executions_id between ${from} and ${to} and e.attempts > 0`);
    await db.execute(sql`
      insert into rota_tasks (rota_clients_id, rota_robots_id, label, data, priority, expiration_date, status, created_at)
      select rota_clients_id, rota_robots_id, 'Invoice ' || rota_executions_id, jsonb_build_object('invoice', rota_executions_id),
             1 + rota_executions_id % 100, now() + interval '400 days',
             (array['pending','success','success','success','business_error','application_error'])[1 + rota_executions_id % 6],
             queued_at
        from rota_executions where rota_executions_id between ${from} and ${to} and rota_executions_id % 2 = 0`);
  }
  await db.execute(sql`vacuum analyze`);
  return { clientId: c, firstRobot: ids.robot, lastExecution: hi };
}
