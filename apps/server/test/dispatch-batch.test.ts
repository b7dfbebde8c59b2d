import { request as httpRequest } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimedRun } from '@rota/contract';
import { AGENT, executionOf, runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import {
  ADMIN,
  client,
  createTestApp,
  createTwoInstances,
  signIn,
  type TestApp,
} from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * Issue 18's dispatch: a claim of several runs at once (`claim-batch`), a result that asks for
 * the next run in the same request (`finish` with `claim`), and the client's parameters kept
 * in the server between claims, dropped on every change here and on other instances.
 */
const PARAMETERS = '/api/rota/parameter/api/v1';
let t: TestApp;
let c: Tenants;
let vm: number;

beforeAll(async () => {
  t = await createTestApp({ engine: { loop: false } });
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
  vm = await createVm(c.admin, 'Batch VM');
});
afterAll(async () => {
  await t?.close();
});

async function drainQueue() {
  await t.db.execute(
    sql`update rota_executions set status = 'cancelled', ended_at = now() where status in ('queued', 'processing')`,
  );
}

async function queueRuns(robot: number, count: number) {
  await t.db.execute(
    sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds)
        select r.rota_clients_id, r.rota_robots_id, 'manual', 50, 300
          from rota_robots r, generate_series(1, ${count}) where r.rota_robots_id = ${robot}`,
  );
}

describe('claim of several runs', () => {
  it('takes up to max runs in queue order, each with its own attempt and run token', async () => {
    await drainQueue();
    const agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Batch agent', vm)).token);
    const robot = await createRobot(c.admin, 'Batch robot');
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push(await runNow(c.admin, { id: robot }));
    const runs = await agent.claimBatch(5);
    expect(runs.map((r) => r.execution_id)).toEqual(ids);
    expect(runs.every((r) => r.attempt === 1)).toBe(true);
    const tokens = new Set(runs.map((r) => r.environment.ROTA_EXECUTION_TOKEN));
    expect(tokens.size).toBe(3);
    // Each token is its own run's: the robot API knows which run calls.
    for (const run of runs) {
      const status = await client(t.app, {
        token: run.environment.ROTA_EXECUTION_TOKEN,
      }).post('/api/rota/run/api/v1/status', {});
      expect(status.status).toBe(200);
    }
    for (const id of ids) {
      const shown = await executionOf(c.admin, id);
      expect(shown).toMatchObject({ status: 'processing', attempts: 1 });
      expect(shown.attempt_list).toHaveLength(1);
    }
    expect(await agent.claimBatch(5)).toEqual([]);
  });

  it('refuses a max outside 1..64 (the agent asks for its free slots, the server caps at 64)', async () => {
    const agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Greedy agent', vm)).token);
    for (const max of [0, 65]) {
      const res = await agent.post(`${AGENT}/claim-batch`, { wait_seconds: 0, max });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'max' })]);
      const finish = await agent.post(`${AGENT}/finish`, {
        execution_id: 1,
        attempt: 1,
        status: 'success',
        exit_code: 0,
        message: null,
        claim: { wait_seconds: 0, max },
      });
      expect(finish.status).toBe(400);
    }
  });

  it('hands two agents claiming at once disjoint runs, every run once (SKIP LOCKED)', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Batch robot shared');
    const agents = [
      simulatedAgent(t.app, (await createAgent(c.admin, 'Batch agent A', vm)).token),
      simulatedAgent(t.app, (await createAgent(c.admin, 'Batch agent B', vm)).token),
    ];
    const TOTAL = 120;
    await queueRuns(robot, TOTAL);
    const taken = await Promise.all(
      agents.map(async (agent) => {
        const mine: number[] = [];
        for (;;) {
          const runs = await agent.claimBatch(7);
          if (runs.length === 0) return mine;
          mine.push(...runs.map((r) => r.execution_id));
        }
      }),
    );
    const all = taken.flat();
    expect(all).toHaveLength(TOTAL);
    expect(new Set(all).size).toBe(TOTAL);
    const [counts] = (
      (await t.db.execute(
        sql`select count(*) filter (where status = 'processing' and attempts = 1)::int as claimed,
                   (select count(*)::int from rota_execution_attempts a
                      join rota_executions e using (rota_executions_id)
                     where e.rota_robots_id = ${robot}) as attempts
              from rota_executions where rota_robots_id = ${robot}`,
      )) as unknown as { rows: { claimed: number; attempts: number }[] }
    ).rows;
    expect(counts).toEqual({ claimed: TOTAL, attempts: TOTAL });
  });

  it('gives every run of a batch back when the agent hung up while it was answered', async () => {
    await drainQueue();
    const gone = await createAgent(c.admin, 'Batch hung-up agent', vm);
    const robot = await createRobot(c.admin, 'Batch robot hang-up');
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push(await runNow(c.admin, { id: robot }));
    const dispatch = t.app.services.dispatch;
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `${AGENT}/claim-batch`,
      headers: { authorization: `Bearer ${gone.token}`, 'content-type': 'application/json' },
    });
    req.on('error', () => undefined);
    // The runs are taken, then the agent's connection goes before the answer is written.
    const claimMany = dispatch.claimMany.bind(dispatch);
    let taken: ClaimedRun[] = [];
    dispatch.claimMany = async (agent, wait, max, signal) => {
      taken = await claimMany(agent, wait, max, signal);
      const closed = new Promise<void>((resolve) =>
        signal?.addEventListener('abort', () => resolve(), { once: true }),
      );
      req.destroy();
      await closed;
      return taken;
    };
    try {
      const given = new Promise<void>((resolve) => {
        const giveBack = dispatch.giveBack.bind(dispatch);
        let left = 3;
        dispatch.giveBack = async (agent, run) => {
          await giveBack(agent, run);
          left -= 1;
          if (left === 0) resolve();
        };
      });
      req.end(JSON.stringify({ wait_seconds: 0, max: 3 }));
      await given;
    } finally {
      delete (dispatch as Partial<typeof dispatch>).claimMany;
      delete (dispatch as Partial<typeof dispatch>).giveBack;
    }
    expect(taken.map((r) => r.execution_id)).toEqual(ids);
    for (const id of ids) {
      const shown = await executionOf(c.admin, id);
      expect(shown).toMatchObject({ status: 'queued', attempts: 0 });
      expect(shown.attempt_list).toEqual([]);
    }
    // Another agent gets them, as first attempts.
    const other = simulatedAgent(t.app, (await createAgent(c.admin, 'Batch taker', vm)).token);
    const runs = await other.claimBatch(3);
    expect(runs.map((r) => [r.execution_id, r.attempt])).toEqual(ids.map((id) => [id, 1]));
  });
});

describe('finish asking for the next run', () => {
  it('records the result, then answers the next runs; without claim the answer is as before', async () => {
    await drainQueue();
    const agent = simulatedAgent(
      t.app,
      (await createAgent(c.admin, 'Finish-claim agent', vm)).token,
    );
    const robot = await createRobot(c.admin, 'Finish-claim robot');
    const ids = [];
    for (let i = 0; i < 4; i += 1) ids.push(await runNow(c.admin, { id: robot }));
    const [first] = await agent.claimBatch(1);
    const next = await agent.finishRun(first!, { wait_seconds: 0, max: 2 });
    expect(next.status).toBe(200);
    expect(next.body.data.accepted).toBe(true);
    const runs = next.body.data.runs as ClaimedRun[];
    expect(runs.map((r) => r.execution_id)).toEqual([ids[1], ids[2]]);
    expect(await executionOf(c.admin, ids[0]!)).toMatchObject({ status: 'success' });
    expect(await executionOf(c.admin, ids[1]!)).toMatchObject({ status: 'processing' });

    // An older agent: no `claim`, no `runs`.
    const plain = await agent.finishRun(runs[0]!);
    expect(plain.body.data).toEqual({ accepted: true });
    // A repeated result is not counted again, and still brings the next run.
    const repeat = await agent.finishRun(runs[0]!, { wait_seconds: 0, max: 1 });
    expect(repeat.body.data.accepted).toBe(false);
    expect((repeat.body.data.runs as ClaimedRun[]).map((r) => r.execution_id)).toEqual([ids[3]]);
    // The queue is empty: an empty list.
    const last = await agent.finishRun(runs[1]!, { wait_seconds: 0, max: 4 });
    expect(last.body.data).toEqual({ accepted: true, runs: [] });
  });

  it('gives the runs it took back when the result is refused (unknown attempt, 404)', async () => {
    await drainQueue();
    const agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Refused agent', vm)).token);
    const robot = await createRobot(c.admin, 'Refused robot');
    const id = await runNow(c.admin, { id: robot });
    const refused = await agent.finishRun(
      { execution_id: id, attempt: 7 },
      { wait_seconds: 0, max: 1 },
    );
    expect(refused.status).toBe(404);
    const shown = await executionOf(c.admin, id);
    expect(shown).toMatchObject({ status: 'queued', attempts: 0 });
    expect(shown.attempt_list).toEqual([]);
  });
});

describe('parameters kept between claims', () => {
  const parameterOf = (run: ClaimedRun | undefined) => run?.environment.ROTA_PARAM_BatchUrl;

  it('reaches the next run at once after a create, an update and a delete', async () => {
    await drainQueue();
    const agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Parameter agent', vm)).token);
    const robot = await createRobot(c.admin, 'Parameter robot');
    const claimOne = async () => {
      await runNow(c.admin, { id: robot });
      const [run] = await agent.claimBatch(1);
      await agent.finishRun(run!);
      return run;
    };
    expect(parameterOf(await claimOne())).toBeUndefined();
    const created = await c.admin.post(`${PARAMETERS}/create`, {
      name: 'BatchUrl',
      value: 'https://one.example.com',
    });
    expect(created.status).toBe(201);
    const id = created.body.data.rota_parameters_id as number;
    expect(parameterOf(await claimOne())).toBe('https://one.example.com');

    // Kept: a change behind the service's back (no NOTIFY) is not seen…
    await t.db.execute(
      sql`update rota_parameters set value = 'https://unheard.example.com' where rota_parameters_id = ${id}`,
    );
    expect(parameterOf(await claimOne())).toBe('https://one.example.com');
    // …one through it is, at the next claim.
    expect(
      (await c.admin.put(`${PARAMETERS}/update`, { id, value: 'https://two.example.com' })).status,
    ).toBe(204);
    expect(parameterOf(await claimOne())).toBe('https://two.example.com');
    expect((await c.admin.post(`${PARAMETERS}/delete`, { id })).status).toBe(202);
    expect(parameterOf(await claimOne())).toBeUndefined();
  });
});

describe.skipIf(!process.env.DATABASE_URL)('parameters kept on two instances', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    ({ first, second } = await createTwoInstances());
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('reaches a run claimed on the other instance after its NOTIFY, and after a reconnect', async () => {
    const admin = client(first.app, {
      token: await signIn(first.app, ADMIN.access, ADMIN.password),
    });
    const robot = await createRobot(admin, 'Two-instance parameter robot');
    const vmId = await createVm(admin, 'Two-instance VM');
    const onSecond = simulatedAgent(
      second.app,
      (await createAgent(admin, 'Second agent', vmId)).token,
    );
    const created = await admin.post(`${PARAMETERS}/create`, {
      name: 'BatchUrl',
      value: 'https://first.example.com',
    });
    const id = created.body.data.rota_parameters_id as number;
    const claimOne = async () => {
      await runNow(admin, { id: robot });
      const [run] = await onSecond.claimBatch(1);
      await onSecond.finishRun(run!);
      return run?.environment.ROTA_PARAM_BatchUrl;
    };
    expect(await claimOne()).toBe('https://first.example.com');

    const heard = new Promise<void>((resolve) => {
      const stop = second.events.subscribe('rota_parameters', () => {
        stop();
        resolve();
      });
    });
    expect(
      (await admin.put(`${PARAMETERS}/update`, { id, value: 'https://changed.example.com' }))
        .status,
    ).toBe(204);
    await heard;
    expect(await claimOne()).toBe('https://changed.example.com');

    // A change whose NOTIFY never came (as if sent while the connection was down) is kept…
    await first.db.execute(
      sql`update rota_parameters set value = 'https://unheard.example.com' where rota_parameters_id = ${id}`,
    );
    expect(await claimOne()).toBe('https://changed.example.com');
    // …until the LISTEN connection comes back: then nothing cached is trusted.
    const back = new Promise<void>((resolve) => {
      const stop = second.events.onGap((listening) => {
        if (!listening) return;
        stop();
        resolve();
      });
    });
    await first.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid()
             and query ilike 'listen %'`,
    );
    await back;
    expect(await claimOne()).toBe('https://unheard.example.com');
  });
});
