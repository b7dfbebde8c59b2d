import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { ADMIN, client, createTwoInstances, signIn, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

const M = '/api/rota/maintenance/api/v1';
const SCH = '/api/rota/scheduling/api/v1';

type Agent = ReturnType<typeof simulatedAgent>;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Heartbeats (which never claim) until the instance behind `agent` says what `on` expects. */
async function untilMaintenance(agent: Agent, on: boolean) {
  await expect
    .poll(async () => (await agent.heartbeat([])).body.data.maintenance === true, {
      interval: 20,
      timeout: 5000,
    })
    .toBe(on);
}

/**
 * Maintenance across two instances on one PostgreSQL: a start on one holds back the other's
 * claims as soon as its NOTIFY arrives, the running runs finish, due schedulings are skipped
 * and listed, and an end on the other instance lets both claim again.
 */
describe.skipIf(!process.env.DATABASE_URL)('maintenance on two server instances', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    ({ first, second } = await createTwoInstances());
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('drains during 50 runs: none killed, none claimed after the start, schedulings skipped; the end resumes', async () => {
    const token = await signIn(first.app, ADMIN.access, ADMIN.password);
    const onFirst = client(first.app, { token });
    const onSecond = client(second.app, { token });
    const robot = await createRobot(onFirst, 'Drain robot');
    const vm = await createVm(onFirst, 'Drain VM');
    const agents: Agent[] = [];
    for (let i = 0; i < 4; i += 1) {
      const { token: agentToken } = await createAgent(onFirst, `Drain agent ${i}`, vm);
      agents.push(simulatedAgent(i % 2 === 0 ? first.app : second.app, agentToken));
    }
    const TOTAL = 50;
    const queued = rowsOf<{ rota_clients_id: number }>(
      await first.db.execute(
        sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds)
            select r.rota_clients_id, r.rota_robots_id, 'manual', 50, 300
              from rota_robots r, generate_series(1, ${TOTAL})
             where r.rota_robots_id = ${robot}
            returning rota_clients_id`,
      ),
    );
    first.app.services.work.announceQueued(queued[0]!.rota_clients_id, null, TOTAL);
    // Each agent holds five runs when the drain begins.
    const running = (await Promise.all(agents.map((a) => a.claimBatch(5)))).map((runs) => {
      expect(runs).toHaveLength(5);
      return runs;
    });
    const schedulings: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await onFirst.post(`${SCH}/create`, {
        name: `Drain scheduling ${i}`,
        rota_robots_id: robot,
        trigger_type: 'interval',
        interval_minutes: 1,
        timeout_minutes: 10,
      });
      expect(res.status).toBe(201);
      schedulings.push(res.body.data.rota_schedulings_id as number);
    }

    const start = await onFirst.post(`${M}/start`, {
      scope: 'cluster',
      mode: 'drain',
      message: 'PostgreSQL minor upgrade',
    });
    expect(start.status).toBe(201);
    const startedAt = start.body.data.started_at as string;
    await untilMaintenance(agents[1]!, true);

    // Nobody claims, on either instance, whether alone or riding on a result.
    for (const agent of agents) expect(await agent.claimBatch(10)).toEqual([]);
    for (const [i, runs] of running.entries()) {
      const agent = agents[i]!;
      const beat = await agent.heartbeat(
        runs.map((r) => ({ execution_id: r.execution_id, attempt: r.attempt })),
      );
      expect(beat.body.data).toMatchObject({ cancel: [], stop: [], maintenance: true });
      for (const run of runs) {
        const res = await agent.finishRun(run, { wait_seconds: 0, max: 4 });
        expect(res.status).toBe(200);
        expect(res.body.data.runs ?? []).toEqual([]);
      }
    }
    // Every due scheduling is skipped and listed, on whichever instance ticks.
    await first.db.execute(
      sql`update rota_schedulings set next_run_at = now() - interval '10 seconds'
           where rota_schedulings_id in (${sql.join(schedulings, sql`, `)})`,
    );
    expect(await first.app.engine.queueDueSchedulings()).toBe(0);
    expect(await second.app.engine.queueDueSchedulings()).toBe(0);
    const shown = await onSecond.post(`${M}/show`, {});
    expect(shown.body.data).toHaveLength(1);
    expect(
      (shown.body.data[0].skipped as { rota_schedulings_id: number }[])
        .map((s) => s.rota_schedulings_id)
        .sort((a, b) => a - b),
    ).toEqual(schedulings);

    const counts = rowsOf<{ status: string; n: number }>(
      await first.db.execute(
        sql`select status, count(*)::int as n from rota_executions
             where rota_robots_id = ${robot} group by status order by status`,
      ),
    );
    expect(counts).toEqual([
      { status: 'queued', n: TOTAL - 20 },
      { status: 'success', n: 20 },
    ]);
    const claimedAfter = rowsOf<{ n: number }>(
      await first.db.execute(
        sql`select count(*)::int as n from rota_execution_attempts a
              join rota_executions e on e.rota_executions_id = a.rota_executions_id
             where e.rota_robots_id = ${robot} and a.started_at >= ${startedAt}::timestamptz`,
      ),
    );
    expect(claimedAfter[0]!.n).toBe(0);

    // Ended on the other instance: both claim again, the rest run.
    expect((await onSecond.post(`${M}/end`, { scope: 'cluster' })).status).toBe(202);
    await untilMaintenance(agents[0]!, false);
    let claimed = 0;
    await Promise.all(
      agents.map(async (agent) => {
        for (;;) {
          const run = await agent.claim(0);
          if (!run) return;
          claimed += 1;
          expect((await agent.finish(run.execution_id, run.attempt, 'success', 0)).status).toBe(
            200,
          );
        }
      }),
    );
    expect(claimed).toBe(TOTAL - 20);
  });
});
