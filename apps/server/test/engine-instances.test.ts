import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedAgent, ROBOT } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { ADMIN, client, createTwoInstances, signIn, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * Two server instances on one PostgreSQL (they share only the database): every
 * execution runs exactly once, every due scheduling is queued exactly once, wake-ups cross
 * instances through NOTIFY. PGlite is one process by nature, so this needs DATABASE_URL.
 */
describe.skipIf(!process.env.DATABASE_URL)('two server instances on PostgreSQL', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    ({ first, second } = await createTwoInstances());
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('runs 1,000 executions with four agents across both, each exactly once', async () => {
    const admin = client(first.app, {
      token: await signIn(first.app, ADMIN.access, ADMIN.password),
    });
    const robot = await createRobot(admin, 'Scale robot');
    const vm = await createVm(admin, 'Scale VM');
    const agents = [];
    for (let i = 0; i < 4; i += 1) {
      const { token } = await createAgent(admin, `Scale agent ${i}`, vm);
      // Two agents speak to each instance.
      agents.push(simulatedAgent(i % 2 === 0 ? first.app : second.app, token));
    }
    const TOTAL = 1000;
    const { rows } = (await first.db.execute(
      sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds)
          select r.rota_clients_id, r.rota_robots_id, 'manual', 50, 300
            from rota_robots r, generate_series(1, ${TOTAL})
           where r.rota_robots_id = ${robot}
          returning rota_clients_id`,
    )) as unknown as { rows: { rota_clients_id: number }[] };
    // Announced, as every way into the queue does (an idle claim may skip a queue known empty).
    first.app.services.work.announceQueued(rows[0]!.rota_clients_id, null, TOTAL);
    const claimed: number[] = [];
    await Promise.all(
      agents.map(async (agent) => {
        for (;;) {
          const run = await agent.claim(0);
          if (!run) return;
          claimed.push(run.execution_id);
          const done = await agent.finish(run.execution_id, run.attempt, 'success', 0);
          expect(done.body.data.accepted).toBe(true);
        }
      }),
    );
    expect(claimed).toHaveLength(TOTAL);
    expect(new Set(claimed).size).toBe(TOTAL);
    const [counts] = (
      (await first.db.execute(
        sql`select count(*) filter (where status = 'success')::int as success,
                   count(*) filter (where attempts = 1)::int as once,
                   (select count(*)::int from rota_execution_attempts a
                      join rota_executions e using (rota_executions_id)
                     where e.rota_robots_id = ${robot}) as attempts
              from rota_executions where rota_robots_id = ${robot}`,
      )) as unknown as { rows: unknown[] }
    ).rows as { success: number; once: number; attempts: number }[];
    expect(counts).toEqual({ success: TOTAL, once: TOTAL, attempts: TOTAL });
  });

  it('queues each due scheduling exactly once when both instances tick together', async () => {
    const admin = client(first.app, {
      token: await signIn(first.app, ADMIN.access, ADMIN.password),
    });
    const robot = await createRobot(admin, 'Scheduled scale robot');
    for (let i = 0; i < 50; i += 1) {
      const res = await admin.post('/api/rota/scheduling/api/v1/create', {
        name: `Due ${i}`,
        rota_robots_id: robot,
        interval_minutes: 60,
        timeout_minutes: 5,
        retries: 0,
        priority: 50,
        sleep: 0,
        active: true,
      });
      expect(res.status).toBe(201);
    }
    await Promise.all([
      first.app.engine.tick(),
      second.app.engine.tick(),
      first.app.engine.tick(),
      second.app.engine.tick(),
    ]);
    const [row] = (
      (await first.db.execute(
        sql`select count(*)::int as n, count(distinct rota_schedulings_id)::int as schedulings
              from rota_executions where rota_robots_id = ${robot}`,
      )) as unknown as { rows: unknown[] }
    ).rows as { n: number; schedulings: number }[];
    expect(row).toEqual({ n: 50, schedulings: 50 });
  });

  it('wakes an agent waiting on one instance when the other queues a run', async () => {
    const admin = client(second.app, {
      token: await signIn(second.app, ADMIN.access, ADMIN.password),
    });
    await first.db.execute(
      sql`update rota_executions set status = 'cancelled', ended_at = now() where status = 'queued'`,
    );
    const robot = await createRobot(admin, 'Cross-instance robot');
    const vm = await createVm(admin, 'Cross VM');
    const { token } = await createAgent(admin, 'Cross agent', vm);
    const waiting = simulatedAgent(first.app, token).claim(20);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const res = await admin.post(`${ROBOT}/run`, { id: robot, rota_vms_id: vm });
    expect(res.status).toBe(201);
    const run = await waiting;
    expect(run!.execution_id).toBe(res.body.data.execution_id);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
