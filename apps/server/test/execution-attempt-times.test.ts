import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY, AGENT, runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * An agent dies mid-run and the run is queued again: each attempt keeps its own agent
 * and times, a queued retry names no current attempt, and the execution's duration is its
 * attempts' run time with the queue time apart.
 */
let t: TestApp;
let c: Tenants;
let vm: number;

beforeAll(async () => {
  t = await createTestApp({ engine: { loop: false } });
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
  vm = await createVm(c.admin, 'Attempts VM');
});
afterAll(async () => {
  await t?.close();
});

const show = async (id: number) => {
  const res = await c.admin.post(`${ACTIVITY}/show`, { id });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

describe('attempt times', () => {
  it('answers each attempt’s agent and times, run and queue time apart', async () => {
    await t.db.execute(
      sql`update rota_executions set status = 'cancelled', ended_at = now() where status in ('queued', 'processing')`,
    );
    const robot = await createRobot(c.admin, 'Attempts robot');
    const first = await createAgent(c.admin, 'Dying agent', vm);
    const second = await createAgent(c.admin, 'Healthy agent', vm);
    const dying = simulatedAgent(t.app, first.token);
    const healthy = simulatedAgent(t.app, second.token);
    const id = await runNow(c.admin, { id: robot, retries: 1 });
    expect((await dying.claim())!).toMatchObject({ execution_id: id, attempt: 1 });

    const running = await show(id);
    expect(running.status).toBe('processing');
    expect(running.attempt_start_date).toBe(running.attempt_list[0].start_date);
    expect(running.run_seconds).toEqual(expect.any(Number));

    // The agent goes away holding nothing: the run is queued again.
    const bye = await client(t.app, { token: first.token }).post(`${AGENT}/goodbye`, {
      running: [],
    });
    expect(bye.status).toBe(200);
    const waiting = await show(id);
    expect(waiting.status).toBe('queued');
    expect(waiting.attempt_start_date).toBeNull();
    expect(waiting.attempt_list).toHaveLength(1);
    expect(waiting.attempt_list[0]).toMatchObject({
      rota_executor_name: 'Dying agent',
      status: 'application_error',
    });
    expect(waiting.attempt_list[0].end_date).not.toBeNull();

    expect((await healthy.claim())!).toMatchObject({ execution_id: id, attempt: 2 });
    expect((await healthy.finish(id, 2, 'success', 0)).status).toBe(200);

    // Known times instead of waiting: queued at T, attempt 1 ran 60 s, waited 30 s, attempt 2
    // ran 30 s. Duration 90 s, queue time 10 + 30 = 40 s.
    await t.db.execute(sql`
      with base as (select timestamptz '2026-01-05 10:00:00+00' as at)
      update rota_executions set queued_at = base.at, started_at = base.at + interval '10 s',
             ended_at = base.at + interval '130 s'
        from base where rota_executions_id = ${id}`);
    await t.db.execute(sql`
      with base as (select timestamptz '2026-01-05 10:00:00+00' as at)
      update rota_execution_attempts
         set started_at = base.at + case attempt when 1 then interval '10 s' else interval '100 s' end,
             ended_at = base.at + case attempt when 1 then interval '70 s' else interval '130 s' end
        from base where rota_executions_id = ${id}`);
    const done = await show(id);
    expect(done).toMatchObject({
      status: 'success',
      run_seconds: 90,
      queued_seconds: 40,
      duration_ms: 90_000,
      attempt_start_date: null,
      rota_executor_name: 'Healthy agent',
    });
    expect(
      done.attempt_list.map((a: { rota_executor_name: string; start_date: string }) => [
        a.rota_executor_name,
        a.start_date,
      ]),
    ).toEqual([
      ['Dying agent', '2026-01-05T10:00:10.000Z'],
      ['Healthy agent', '2026-01-05T10:01:40.000Z'],
    ]);

    // The list answers the same.
    const listed = await c.admin.post(`${ACTIVITY}/index`, {
      startDate: '2026-01-05',
      endDate: '2026-01-05',
    });
    expect(listed.status).toBe(200);
    expect(
      listed.body.data.find((e: { execution_id: number }) => e.execution_id === id),
    ).toMatchObject({ run_seconds: 90, queued_seconds: 40, duration_ms: 90_000 });
  });
});
