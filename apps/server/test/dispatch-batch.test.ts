import { request as httpRequest } from 'node:http';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
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
import { claimRuns } from '../src/modules/executions/claim-statements.js';
import {
  finishAndClaimEach,
  type FinishClaimAsk,
} from '../src/modules/executions/finish-claim-statements.js';
import { FinishClaimBatcher } from '../src/modules/dispatch/finish-claim-batcher.js';

/**
 * Batched dispatch: a claim of several runs at once (`claim-batch`), a result that asks for
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
  const { rows } = (await t.db.execute(
    sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds)
        select r.rota_clients_id, r.rota_robots_id, 'manual', 50, 300
          from rota_robots r, generate_series(1, ${count}) where r.rota_robots_id = ${robot}
        returning rota_clients_id`,
  )) as unknown as { rows: { rota_clients_id: number }[] };
  // Announced, as every way into the queue does (an idle claim may skip a queue known empty);
  // to this instance only, as NOTIFY would: no statement of its own among those a test counts.
  t.app.services.work.onWork({ c: rows[0]!.rota_clients_id, v: null, n: count });
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

describe('results of several agents in one statement', () => {
  /** Agents each on a VM of its own, each holding one claimed run. */
  async function agentsHoldingRuns(count: number, robot: number, label: string) {
    const agents = [];
    for (let i = 0; i < count; i += 1) {
      const vmId = await createVm(c.admin, `${label} VM ${i}`);
      const created = await createAgent(c.admin, `${label} agent ${i}`, vmId);
      agents.push({
        identity: {
          rota_clients_id: c.defaultClientId,
          rota_nodes_id: created.rota_nodes_id,
          rota_vms_id: vmId,
        },
        token: created.token,
      });
    }
    await queueRuns(robot, count);
    const held = [];
    for (const agent of agents) {
      const [run] = await claimRuns(
        t.db,
        agent.identity,
        [`held-${label}-${agent.identity.rota_nodes_id}`],
        300,
      );
      held.push(run!);
    }
    return { agents, held };
  }

  /** One run of the default client queued with `priority`, for the VMs `vmIds` (null: any). */
  async function queueRun(robot: number, priority: number, vmIds: number[] | null = null) {
    const [row] = (
      (await t.db.execute(
        sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds, vm_ids)
            values (${c.defaultClientId}, ${robot}, 'manual', ${priority}, 300,
                    ${vmIds ? `{${vmIds.join(',')}}` : null}::integer[])
            returning rota_executions_id as id`,
      )) as unknown as { rows: { id: number }[] }
    ).rows;
    t.app.services.work.onWork({ c: c.defaultClientId, v: vmIds, n: 1 });
    return row!.id;
  }

  /** A success of the first attempt of `run`, as an agent reports it. */
  const successOf = (run: { rota_executions_id: number }): FinishClaimAsk['result'] => ({
    execution_id: run.rota_executions_id,
    attempt: 1,
    status: 'success',
    exit_code: 0,
    message: null,
    code: null,
    params: null,
  });

  it('records each result and hands each agent its own next run, VM limits kept', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Statement robot');
    const { agents, held } = await agentsHoldingRuns(5, robot, 'Statement');
    // Next in the queue: the most urgent run may only go to the fourth agent's VM.
    const fourthVm = agents[3]!.identity.rota_vms_id;
    const urgent = await queueRun(robot, 99, [fourthVm]);
    await queueRuns(robot, 3);
    const asks: FinishClaimAsk[] = agents.map((agent, i) => ({
      agent: agent.identity,
      result: {
        ...successOf(held[i]!),
        // The second agent's result names an attempt that is not its current one.
        attempt: i === 1 ? 2 : 1,
        status: i === 2 ? 'application_error' : 'success',
        exit_code: i === 2 ? 3 : 0,
        message: i === 2 ? 'Falhou: "aspas" e \\ barra' : null,
      },
      tokenHash: `next-${i}`,
    }));
    const answers = await finishAndClaimEach(t.db, asks, 300);

    expect(answers.map((a) => a.settled?.status ?? null)).toEqual([
      'success',
      null,
      'application_error',
      'success',
      'success',
    ]);
    const shown = await Promise.all(
      held.map((run) => executionOf(c.admin, run.rota_executions_id)),
    );
    expect(shown.map((e) => e.status)).toEqual([
      'success',
      'processing',
      'application_error',
      'success',
      'success',
    ]);
    expect(shown[2]).toMatchObject({ exit_code: 3, message: 'Falhou: "aspas" e \\ barra' });
    // Four runs were waiting for five agents: the fourth agent got the urgent one, each other
    // agent a distinct run in queue order until none was left.
    const taken = answers.map((a) => a.claimed.map((run) => run.rota_executions_id));
    expect(taken[3]).toEqual([urgent]);
    const others = [0, 1, 2, 4].flatMap((i) => taken[i]!);
    expect(others).toHaveLength(3);
    expect(new Set([...others, urgent]).size).toBe(4);
    expect(taken.filter((runs) => runs.length === 0)).toHaveLength(1);
    for (const [i, answer] of answers.entries())
      for (const run of answer.claimed) {
        expect(run.token_hash).toBe(`next-${i}`);
        expect(run.rota_nodes_id).toBe(agents[i]!.identity.rota_nodes_id);
        const execution = await executionOf(c.admin, run.rota_executions_id);
        expect(execution).toMatchObject({ status: 'processing', attempts: 1 });
        expect(execution.attempt_list).toHaveLength(1);
      }
  });

  it('hands a group of one client runs free to go anywhere in queue order, one each', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Queue order robot');
    const { agents, held } = await agentsHoldingRuns(3, robot, 'Queue order');
    // Four runs waiting, most urgent last inserted: the agents take them by priority, then age.
    const ids = [];
    for (const priority of [10, 30, 20, 40]) ids.push(await queueRun(robot, priority));
    const answers = await finishAndClaimEach(
      t.db,
      agents.map((agent, i) => ({
        agent: agent.identity,
        result: successOf(held[i]!),
        tokenHash: `order-${i}`,
      })),
      300,
    );
    expect(answers.map((a) => a.claimed.map((run) => run.rota_executions_id))).toEqual([
      [ids[3]],
      [ids[1]],
      [ids[2]],
    ]);
    expect(answers.map((a) => a.claimed[0]!.token_hash)).toEqual(['order-0', 'order-1', 'order-2']);
    // The fourth candidate the statement looked at stays queued for whoever asks next.
    expect(await executionOf(c.admin, ids[0]!)).toMatchObject({ status: 'queued', attempts: 0 });
  });

  it('stores a lone surrogate in a message as the single statement does (U+FFFD)', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Surrogate robot');
    const { agents, held } = await agentsHoldingRuns(2, robot, 'Surrogate');
    const answers = await finishAndClaimEach(
      t.db,
      agents.map((agent, i) => ({
        agent: agent.identity,
        result: {
          ...successOf(held[i]!),
          status: 'business_error',
          exit_code: 1,
          message: i === 0 ? 'half \ud800 pair' : 'plain',
        },
        tokenHash: `surrogate-${i}`,
      })),
      300,
    );
    expect(answers.map((a) => a.settled?.status)).toEqual(['business_error', 'business_error']);
    const first = await executionOf(c.admin, held[0]!.rota_executions_id);
    expect(first.message).toBe('half \ufffd pair');
  });

  it('writes a group whose statement fails one result at a time: only the bad one fails', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Fallback robot');
    const { agents, held } = await agentsHoldingRuns(3, robot, 'Fallback');
    await queueRuns(robot, 3);
    const warned: { obj: { err?: unknown; results?: number }; msg: string }[] = [];
    const batcher = new FinishClaimBatcher(t.db, 300, {
      warn: (obj, msg) => warned.push({ obj, msg }),
    });
    // The third names an agent that does not exist: the run it would take breaks a foreign key,
    // which fails the whole group's statement.
    const asks = agents.map((agent, i) =>
      batcher.finishAndClaim({
        agent: i === 2 ? { ...agent.identity, rota_nodes_id: 2_000_000_000 } : agent.identity,
        result: successOf(held[i]!),
        tokenHash: `fallback-${i}`,
      }),
    );
    const outcomes = await Promise.allSettled(asks);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    // The group's own failure is in the log, not only the one result's that fails again alone.
    expect(warned).toHaveLength(1);
    expect(warned[0]!.obj.results).toBe(3);
    expect(warned[0]!.obj.err).toBeInstanceOf(Error);
    for (const [i, outcome] of outcomes.slice(0, 2).entries()) {
      const answer = (outcome as PromiseFulfilledResult<Awaited<(typeof asks)[number]>>).value;
      expect(answer.settled?.status).toBe('success');
      expect(answer.claimed).toHaveLength(1);
      expect(answer.claimed[0]!.token_hash).toBe(`fallback-${i}`);
    }
    // Nothing of the failed statement stayed: the third agent's run is still its, processing,
    // and one run still waits.
    expect(await executionOf(c.admin, held[2]!.rota_executions_id)).toMatchObject({
      status: 'processing',
    });
    const [left] = (
      (await t.db.execute(
        sql`select count(*)::int as queued from rota_executions
             where rota_robots_id = ${robot} and status = 'queued'`,
      )) as unknown as { rows: { queued: number }[] }
    ).rows;
    expect(left).toEqual({ queued: 1 });
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'writes consecutive groups on one connection and gives it back once none wait',
    async () => {
      await drainQueue();
      const robot = await createRobot(c.admin, 'Lane robot');
      const { agents, held } = await agentsHoldingRuns(4, robot, 'Lane');
      await queueRuns(robot, 4);
      const pool = (t.db as unknown as { $client: pg.Pool }).$client;
      const batcher = new FinishClaimBatcher(t.db, 300);
      const ask = (i: number) =>
        batcher.finishAndClaim({
          agent: agents[i]!.identity,
          result: successOf(held[i]!),
          tokenHash: `lane-${i}`,
        });
      // Connections taken from the pool while the two groups are written (pool.query takes one
      // through connect too).
      const connect = pool.connect.bind(pool);
      let taken = 0;
      pool.connect = ((...args: Parameters<typeof connect>) => {
        taken += 1;
        return connect(...args);
      }) as typeof pool.connect;
      try {
        const first = [ask(0), ask(1)];
        await new Promise((resolve) => setImmediate(resolve));
        // The first group is being written; these two wait and go together next.
        const second = [ask(2), ask(3)];
        const answers = await Promise.all([...first, ...second]);
        expect(answers.map((a) => a.settled?.status)).toEqual(Array(4).fill('success'));
        expect(answers.map((a) => a.claimed.length)).toEqual([1, 1, 1, 1]);
      } finally {
        pool.connect = connect;
      }
      expect(taken).toBe(1);
      // Given back: every connection of the pool is idle again.
      expect(pool.totalCount).toBeGreaterThan(0);
      expect(pool.idleCount).toBe(pool.totalCount);
    },
  );

  it('keeps every run once when many agents finish and ask at the same moment', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Stampede robot');
    const { agents, held } = await agentsHoldingRuns(12, robot, 'Stampede');
    const TOTAL = 60;
    await queueRuns(robot, TOTAL);
    const simulated = agents.map((agent) => simulatedAgent(t.app, agent.token));
    // Every agent sends its result with a claim, at once, until the queue is empty.
    const handed = await Promise.all(
      simulated.map(async (agent, i) => {
        const mine: number[] = [];
        let current: { execution_id: number; attempt: number } = {
          execution_id: held[i]!.rota_executions_id,
          attempt: 1,
        };
        for (;;) {
          const res = await agent.finishRun(current, { wait_seconds: 0, max: 1 });
          expect(res.status).toBe(200);
          expect(res.body.data.accepted).toBe(true);
          const [next] = res.body.data.runs as ClaimedRun[];
          if (!next) return mine;
          mine.push(next.execution_id);
          current = next;
        }
      }),
    );
    const all = handed.flat();
    expect(all).toHaveLength(TOTAL);
    expect(new Set(all).size).toBe(TOTAL);
    const [counts] = (
      (await t.db.execute(
        sql`select count(*) filter (where status = 'success' and attempts = 1)::int as done,
                   count(*)::int as runs,
                   (select count(*)::int from rota_execution_attempts a
                      join rota_executions e using (rota_executions_id)
                     where e.rota_robots_id = ${robot} and a.status = 'success') as attempts
              from rota_executions where rota_robots_id = ${robot}`,
      )) as unknown as { rows: { done: number; runs: number; attempts: number }[] }
    ).rows;
    expect(counts).toEqual({ done: TOTAL + 12, runs: TOTAL + 12, attempts: TOTAL + 12 });
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
