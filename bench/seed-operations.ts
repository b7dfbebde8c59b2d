import { sql } from 'drizzle-orm';
import type { Database, Db } from '../apps/server/src/db/client.js';
import { seedDatabase } from '../apps/server/src/db/seed.js';

/**
 * A fresh database as the list benches read it: migrated, the administrator `admin` with
 * `adminPassword`, and `rows` rows in every operations table of its client.
 */
export async function seedOperationsDatabase(
  database: Database,
  rows: number,
  adminPassword: string,
) {
  await database.migrate();
  await seedDatabase(database.db, {
    adminAccess: 'admin',
    adminEmail: 'admin@localhost',
    adminPassword,
  });
  await seedOperations(database.db, 1, rows);
}

/**
 * Fills every operations table of one client with `rows` rows using set-based SQL
 * (generate_series), so 100,000 rows a table take seconds, not minutes.
 */
export async function seedOperations(db: Db, clientId: number, rows: number) {
  const n = rows;
  await db.execute(sql`
    insert into rota_robots (rota_clients_id, name, description, executor, remote_root, active)
    select ${clientId}, 'Robot ' || g, 'Robot number ' || g || ' of the bench', 'node main.js --id ' || g, 'C:\\robots\\' || g, g % 3 <> 0
    from generate_series(1, ${n}) g`);
  await db.execute(sql`
    insert into rota_robot_versions (rota_clients_id, rota_robots_id, version, file_name, format, sha256, size_bytes)
    select ${clientId}, r.rota_robots_id, '1.0.' || r.rota_robots_id, 'robot.zip', 'zip', md5(r.rota_robots_id::text) || md5('v' || r.rota_robots_id), 1024
    from rota_robots r where r.rota_clients_id = ${clientId}`);
  await db.execute(sql`
    insert into rota_robot_fields (rota_clients_id, rota_robots_id, name, label, type, required)
    select ${clientId}, r.rota_robots_id, 'field_' || r.rota_robots_id, 'Field ' || r.rota_robots_id, 'text', r.rota_robots_id % 2 = 0
    from rota_robots r where r.rota_clients_id = ${clientId}`);
  await db.execute(sql`
    insert into rota_tasks (rota_clients_id, rota_robots_id, label, data, priority, expiration_date, status, created_at)
    select ${clientId}, r.rota_robots_id, 'Task ' || r.rota_robots_id, jsonb_build_object('n', r.rota_robots_id), 1 + r.rota_robots_id % 100,
           now() + interval '30 days',
           (array['pending','processing','success','business_error','application_error','expired'])[1 + r.rota_robots_id % 6],
           now() - r.rota_robots_id * interval '20 seconds'
    from rota_robots r where r.rota_clients_id = ${clientId}`);
  await db.execute(sql`
    insert into rota_vms (rota_clients_id, name, hostname, os)
    select ${clientId}, 'VM ' || g, 'vm-' || g || '.corp.local', case when g % 4 = 0 then 'linux' else 'windows' end
    from generate_series(1, ${n}) g`);
  await db.execute(sql`
    insert into rota_nodes (rota_clients_id, name, rota_vms_id, token_hash, last_seen_at, online)
    select ${clientId}, 'Agent ' || v.rota_vms_id, v.rota_vms_id, md5('t' || v.rota_vms_id) || md5('u' || v.rota_vms_id),
           case when v.rota_vms_id % 5 = 0 then now() else now() - interval '1 hour' end,
           v.rota_vms_id % 5 = 0
    from rota_vms v where v.rota_clients_id = ${clientId}`);
  await db.execute(sql`
    insert into rota_schedulings (rota_clients_id, name, rota_robots_id, interval_minutes, timeout_minutes, retries, priority, deleted_at)
    select ${clientId}, 'Scheduling ' || r.rota_robots_id, r.rota_robots_id, 5 + r.rota_robots_id % 60, 30, r.rota_robots_id % 3, 50,
           case when r.rota_robots_id % 10 = 0 then now() else null end
    from rota_robots r where r.rota_clients_id = ${clientId}`);
  await db.execute(sql`
    insert into rota_scheduling_vms (rota_clients_id, rota_schedulings_id, rota_vms_id)
    select ${clientId}, s.rota_schedulings_id, v.rota_vms_id
    from rota_schedulings s join rota_vms v on v.name = 'VM ' || (s.rota_schedulings_id - (select min(rota_schedulings_id) from rota_schedulings) + 1)
    where s.rota_clients_id = ${clientId} and v.rota_clients_id = ${clientId}`);
  await db.execute(sql`
    insert into rota_parameters (rota_clients_id, name, value, description, updated_at)
    select ${clientId}, 'PARAM_' || g, 'value ' || g, 'Parameter ' || g, now() - g * interval '1 minute'
    from generate_series(1, ${n}) g`);
  // A live database is kept vacuumed by autovacuum; without it index-only counts visit the heap.
  await db.execute(sql`vacuum analyze`);
}
