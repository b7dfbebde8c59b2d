import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.js';
import { FakeClock } from '../src/lib/clock.js';
import { rowsOf } from '../src/lib/sql-rows.js';
import { systemScope } from '../src/lib/tenant-scope.js';
import { ExecutionDaysService, SERVER_TIME_ZONE } from '../src/modules/execution-days/service.js';
import { CLIENTS } from './helpers/administration.js';
import { ACTIVITY, ROBOT, runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, createTwoInstances, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * The dashboard's days and failing robots and the activity list's totals are read from
 * `rota_execution_days` (kept by triggers, folded by the merge): after every kind of write they
 * must equal a count of the executions themselves, before and after a merge.
 */

const DAY = 86_400_000;
const DASHBOARD = '/api/rota/dashboard/api/v1/index';
const NOW = new Date();
const clock = new FakeClock(NOW);

let t: TestApp;
let c: Tenants;

beforeAll(async () => {
  t = await createTestApp({ clock });
  c = await setUpTenants(t);
});
afterAll(() => t?.close());

/** `YYYY-MM-DD` in the server's zone, as the dashboard and the activity filters read days. */
const localDay = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: SERVER_TIME_ZONE }).format(at);

type Real = { client: number; robot: number; day: string; status: string; n: number };

/** Executions per client, robot, local day and status, counted from the executions. */
async function realCounts(db: Db): Promise<Real[]> {
  return rowsOf<Real>(
    db,
    sql`select rota_clients_id as client, rota_robots_id as robot,
               to_char(queued_at at time zone ${SERVER_TIME_ZONE}, 'YYYY-MM-DD') as day,
               status, count(*)::int as n
          from rota_executions group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
  );
}

/** The kept days summed per key, zeros left out. */
async function keptCounts(db: Db): Promise<Real[]> {
  return rowsOf<Real>(
    db,
    sql`select rota_clients_id as client, rota_robots_id as robot, day::text as day, status,
               sum(n)::int as n
          from rota_execution_days group by 1, 2, 3, 4 having sum(n) <> 0 order by 1, 2, 3, 4`,
  );
}

/** The kept days, the dashboard and the activity totals of both clients all match a real count. */
async function expectExact(app: TestApp = t) {
  const real = await realCounts(app.db);
  expect(await keptCounts(app.db)).toEqual(real);
  const days = [...new Set(real.map((r) => r.day))].sort();
  const today = localDay(new Date());
  const startDate = days[0] && days[0] < today ? days[0] : today;
  for (const [clientId, as] of [
    [c.defaultClientId, c.admin],
    [c.otherClientId, c.other],
  ] as const) {
    const mine = real.filter((r) => r.client === clientId);
    const sum = (rows: Real[]) => rows.reduce((n, r) => n + r.n, 0);

    const dashboard = await as.post(DASHBOARD, { startDate, endDate: today });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.data.totals.executions).toBe(sum(mine));
    for (const { day, counts } of dashboard.body.data.per_day as {
      day: string;
      counts: Record<string, number>;
    }[]) {
      for (const [status, n] of Object.entries(counts)) {
        const expected = sum(mine.filter((r) => r.day === day && r.status === status));
        expect(n, `${day} ${status} of client ${clientId}`).toBe(expected);
      }
    }
    for (const f of dashboard.body.data.failing_robots as {
      rota_robots_id: number;
      failures: number;
      executions: number;
    }[]) {
      const ofRobot = mine.filter((r) => r.robot === f.rota_robots_id);
      expect(f.executions).toBe(sum(ofRobot));
      expect(f.failures).toBe(
        sum(
          ofRobot.filter((r) =>
            ['application_error', 'business_error', 'timeout'].includes(r.status),
          ),
        ),
      );
    }

    const totalOf = async (filter: object) => {
      const res = await as.post(`${ACTIVITY}/index`, { per_page: 1, ...filter });
      expect(res.status).toBe(200);
      return res.body.meta.total as number;
    };
    expect(await totalOf({})).toBe(sum(mine));
    expect(await totalOf({ status: 'success' })).toBe(
      sum(mine.filter((r) => r.status === 'success')),
    );
    expect(await totalOf({ startDate: today, endDate: today })).toBe(
      sum(mine.filter((r) => r.day === today)),
    );
    for (const robot of new Set(mine.map((r) => r.robot))) {
      expect(await totalOf({ rota_robots_id: robot, status: 'queued' })).toBe(
        sum(mine.filter((r) => r.robot === robot && r.status === 'queued')),
      );
    }
  }
}

/** Exact as the triggers left it, and again once merged. */
async function expectExactMerged(app: TestApp = t) {
  await expectExact(app);
  await new ExecutionDaysService(app.db).merge();
  const unmerged = await rowsOf<{ n: number }>(
    app.db,
    sql`select count(*)::int as n from rota_execution_days where not merged`,
  );
  expect(unmerged[0]!.n).toBe(0);
  // Merged, the all-time totals alone are each client's executions per status.
  const real = await rowsOf<{ client: number; status: string; n: number }>(
    app.db,
    sql`select rota_clients_id as client, status, count(*)::int as n from rota_executions
         group by 1, 2 order by 1, 2`,
  );
  const totals = await rowsOf<{ client: number; status: string; n: number }>(
    app.db,
    sql`select rota_clients_id as client, status, n::int as n from rota_execution_totals
         where n <> 0 order by 1, 2`,
  );
  expect(totals).toEqual(real);
  await expectExact(app);
}

async function agentOf(as: Tenants['admin'], name: string) {
  const vm = await createVm(as, `${name} VM`);
  const { token } = await createAgent(as, name, vm);
  const agent = simulatedAgent(t.app, token);
  expect((await agent.hello()).status).toBe(200);
  return agent;
}

describe('execution days behind the dashboard and the activity totals', () => {
  it('records the server’s zone at start and counts in it', async () => {
    const [row] = await rowsOf<{ zone: string }>(
      t.db,
      sql`select zone from rota_execution_days_zone`,
    );
    expect(row!.zone).toBe(SERVER_TIME_ZONE);
    await expectExact();
  });

  it('stay exact as runs are queued, claimed, settled and retried', async () => {
    const robot = await createRobot(c.admin, 'Days robot');
    const flaky = await createRobot(c.admin, 'Days flaky robot');
    const otherRobot = await createRobot(c.other, 'Days other robot');
    for (let i = 0; i < 3; i++) await runNow(c.admin, { id: robot });
    await runNow(c.admin, { id: flaky, retries: 1 });
    await runNow(c.other, { id: otherRobot });
    await expectExact();

    const agent = await agentOf(c.admin, 'Days agent');
    for (let i = 0; i < 4; i++) {
      const run = (await agent.claim())!;
      await expectExact();
      const failing = run.robot.rota_robots_id === flaky;
      const res = await agent.finish(
        run.execution_id,
        run.attempt,
        failing ? 'application_error' : 'success',
        failing ? 1 : 0,
      );
      expect(res.status).toBe(200);
    }
    // The flaky run's first attempt failed: it waits again, counted as queued, then settles.
    await expectExactMerged();
    const retried = (await agent.claim())!;
    expect(retried.attempt).toBe(2);
    await agent.finish(retried.execution_id, retried.attempt, 'application_error', 1);
    await expectExactMerged();
  });

  it('stay exact when a queued run is cancelled and when a robot is deleted', async () => {
    const doomed = await createRobot(c.admin, 'Days doomed robot');
    await runNow(c.admin, { id: doomed });
    const cancelled = await runNow(c.admin, { id: doomed });
    expect((await c.admin.post(`${ACTIVITY}/cancel`, { id: cancelled })).status).toBe(202);
    await expectExactMerged();
    expect((await c.admin.post(`${ROBOT}/delete`, { id: doomed })).status).toBe(202);
    await expectExactMerged();
    const zeros = await rowsOf<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from rota_execution_days where rota_robots_id = ${doomed}`,
    );
    // Merged to nothing: a deleted robot leaves no rows behind.
    expect(zeros[0]!.n).toBe(0);
  });

  it('count a run on the day it was queued, moved across midnight or pruned by the app’s clock', async () => {
    const robot = await createRobot(c.other, 'Days old robot');
    const ids = [await runNow(c.other, { id: robot }), await runNow(c.other, { id: robot })];
    const agent = await agentOf(c.other, 'Days other agent');
    for (let i = 0; i < 2; i++) {
      const run = (await agent.claim())!;
      await agent.finish(run.execution_id, run.attempt, 'success', 0);
    }
    // Queued ten days ago and ended then: a run from before.
    await t.db.execute(sql`update rota_executions
      set queued_at = queued_at - interval '10 days', started_at = started_at - interval '10 days',
          ended_at = ended_at - interval '10 days'
      where rota_executions_id = ${ids[0]!}`);
    await expectExactMerged();

    // Forty days on by the app's clock, the other client keeping five days: retention prunes
    // every ended run of that client, and its days go with them.
    const update = await c.admin.put(`${CLIENTS}/update`, {
      id: c.otherClientId,
      name: (await c.admin.post(`${CLIENTS}/show`, { id: c.otherClientId })).body.data.name,
      retention_days: 5,
      audit_retention_days: 30,
    });
    expect(update.status).toBe(204);
    clock.set(new Date(NOW.getTime() + 40 * DAY));
    const report = await t.app.retention.prune();
    expect(report.executions).toBeGreaterThanOrEqual(2);
    await expectExactMerged();
  });

  it('fill the days from the executions when a zone is first recorded', async () => {
    // As after the migration: no zone yet, so nothing is counted and readers count runs.
    await t.db.execute(sql`update rota_execution_days_zone set zone = null`);
    await t.db.execute(sql`delete from rota_execution_days`);
    const robot = await createRobot(c.admin, 'Days uncounted robot');
    await runNow(c.admin, { id: robot });
    expect(await keptCounts(t.db)).toEqual([]);
    const days = new ExecutionDaysService(t.db);
    expect(await days.counted()).toBe(false);
    expect(await days.total(systemScope(c.defaultClientId), {}, {})).toBeNull();
    expect(await days.countsPerDay(systemScope(c.defaultClientId), {})).toBeNull();
    await days.adopt();
    await expectExactMerged();
    // A server in another zone leaves the recorded one alone and counts runs itself.
    const elsewhere = new ExecutionDaysService(t.db, { zone: 'Pacific/Kiritimati' });
    await elsewhere.adopt();
    expect(await elsewhere.counted()).toBe(false);
    expect(await elsewhere.countsPerDay(systemScope(c.defaultClientId), {})).toBeNull();
    await expectExact();
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))('two servers on one database', () => {
  it('count every run once, settled on either, merged by both at once', async () => {
    const { first, second } = await createTwoInstances();
    try {
      const tenants = await setUpTenants(first);
      const saved = c;
      c = tenants;
      try {
        const robot = await createRobot(tenants.admin, 'Days shared robot');
        for (let i = 0; i < 6; i++) await runNow(tenants.admin, { id: robot });
        const vm = await createVm(tenants.admin, 'Days shared VM');
        const agents = await Promise.all(
          [first, second].map(async (app, i) => {
            const { token } = await createAgent(tenants.admin, `Days shared agent ${i}`, vm);
            const agent = simulatedAgent(app.app, token);
            expect((await agent.hello()).status).toBe(200);
            return agent;
          }),
        );
        await Promise.all(
          agents.map(async (agent) => {
            for (let i = 0; i < 3; i++) {
              const run = (await agent.claim())!;
              await agent.finish(run.execution_id, run.attempt, 'success', 0);
            }
          }),
        );
        await Promise.all([
          new ExecutionDaysService(first.db).merge(),
          new ExecutionDaysService(second.db).merge(),
        ]);
        await expectExactMerged(first);
        await expectExactMerged(second);
      } finally {
        c = saved;
      }
    } finally {
      await second.close();
      await first.close();
    }
  });
});
