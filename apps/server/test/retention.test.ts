import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../src/lib/clock.js';
import type { Db } from '../src/db/client.js';
import { rowsOf } from '../src/lib/sql-rows.js';
import { AUTH, CLIENTS } from './helpers/administration.js';
import { ACTIVITY, executionOf, runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import {
  ADMIN,
  client,
  createTestApp,
  createTwoInstances,
  signIn,
  type TestApp,
} from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createAgent, createVm } from './helpers/vms.js';

const DAY = 86_400_000;
const NOW = new Date();
const DASHBOARD = '/api/rota/dashboard/api/v1/index';

let t: TestApp;
let c: Tenants;
const clock = new FakeClock(NOW);

beforeAll(async () => {
  t = await createTestApp({ clock });
  c = await setUpTenants(t);
});
afterAll(() => t.close());

const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

/** An ended execution `days` ago with an attempt, two log lines and an artifact row. */
async function endedRun(db: Db, clientId: number, robot: number, days: number): Promise<number> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds,
          status, attempts, queued_at, started_at, ended_at)
        values (${clientId}, ${robot}, 'manual', 50, 300, 'success', 1,
          ${ago(days)}::timestamptz, ${ago(days)}::timestamptz, ${ago(days)}::timestamptz)
        returning rota_executions_id as id`,
  );
  const id = row!.id;
  await db.execute(
    sql`insert into rota_execution_attempts (rota_clients_id, rota_executions_id, attempt, status, started_at, ended_at)
        values (${clientId}, ${id}, 1, 'success', ${ago(days)}::timestamptz, ${ago(days)}::timestamptz)`,
  );
  await db.execute(
    sql`insert into rota_execution_logs (rota_clients_id, rota_executions_id, attempt, seq, stream, line, at)
        select ${clientId}, ${id}, 1, s, 'stdout', 'line ' || s, ${ago(days)}::timestamptz
          from generate_series(1, 2) s`,
  );
  await db.execute(
    sql`insert into rota_artifacts (rota_clients_id, rota_executions_id, name, media_type, size, sha256, blob_name)
        values (${clientId}, ${id}, 'shot.png', 'image/png', 3, 'abc', ${`artifact-${id}`})`,
  );
  return id;
}

async function auditRecord(db: Db, clientId: number, days: number, entity: string) {
  await db.execute(
    sql`insert into audit_logs (rota_clients_id, action, entity, entity_id, created_at)
        values (${clientId}, 'update', ${entity}, '1', ${ago(days)}::timestamptz)`,
  );
}

const countOf = async (db: Db, statement: ReturnType<typeof sql>) =>
  (await rowsOf<{ n: number }>(db, statement))[0]!.n;

const runsLeft = (ids: number[]) =>
  countOf(
    t.db,
    sql`select count(*)::int as n from rota_executions where rota_executions_id = any(${`{${ids.join(',')}}`}::int[])`,
  );

describe('retention', () => {
  it('prunes what each client keeps no longer, keeps the rest, and the totals stay exact', async () => {
    const robot = await createRobot(c.admin, 'Retention robot');
    const otherRobot = await createRobot(c.other, 'Retention other robot');
    // The other client keeps executions 5 days and audit records 30 days.
    expect(
      (
        await c.admin.put(`${CLIENTS}/update`, {
          id: c.otherClientId,
          name: (await c.admin.post(`${CLIENTS}/show`, { id: c.otherClientId })).body.data.name,
          retention_days: 5,
          audit_retention_days: 30,
        })
      ).status,
    ).toBe(204);

    const oldRuns = [
      await endedRun(t.db, c.defaultClientId, robot, 100),
      await endedRun(t.db, c.defaultClientId, robot, 91),
      await endedRun(t.db, c.otherClientId, otherRobot, 10),
    ];
    const newRuns = [
      await endedRun(t.db, c.defaultClientId, robot, 80),
      await endedRun(t.db, c.defaultClientId, robot, 10),
      await endedRun(t.db, c.otherClientId, otherRobot, 2),
    ];
    // A run still queued long ago is not ended: never pruned.
    const [queued] = await rowsOf<{ id: number }>(
      t.db,
      sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds, queued_at)
          values (${c.defaultClientId}, ${robot}, 'manual', 50, 300, ${ago(200)}::timestamptz)
          returning rota_executions_id as id`,
    );
    newRuns.push(queued!.id);

    await auditRecord(t.db, c.defaultClientId, 400, 'retention-old');
    await auditRecord(t.db, c.defaultClientId, 100, 'retention-kept');
    await auditRecord(t.db, c.otherClientId, 100, 'retention-old');
    await auditRecord(t.db, c.otherClientId, 10, 'retention-kept');

    const range = {
      startDate: ago(250).slice(0, 10),
      endDate: NOW.toISOString().slice(0, 10),
    };
    const totalOf = async (as: typeof c.admin) =>
      (await as.post(`${ACTIVITY}/index`, { ...range, per_page: 5 })).body.meta.total as number;
    const dashOf = async (as: typeof c.admin) =>
      (await as.post(DASHBOARD, range)).body.data.totals.executions as number;
    const before = {
      list: await totalOf(c.admin),
      otherList: await totalOf(c.other),
      dash: await dashOf(c.admin),
    };

    const report = await t.app.retention.prune();
    expect(report.executions).toBeGreaterThanOrEqual(3);
    expect(report.audit_records).toBeGreaterThanOrEqual(2);

    expect(await runsLeft(oldRuns)).toBe(0);
    expect(await runsLeft(newRuns)).toBe(newRuns.length);
    // Their attempts, log lines and artifacts went with them (ON DELETE CASCADE).
    const ids = `{${oldRuns.join(',')}}`;
    for (const table of ['rota_execution_attempts', 'rota_execution_logs', 'rota_artifacts']) {
      expect(
        await countOf(
          t.db,
          sql`select count(*)::int as n from ${sql.identifier(table)} where rota_executions_id = any(${ids}::int[])`,
        ),
      ).toBe(0);
    }
    const keptIds = `{${newRuns.slice(0, 3).join(',')}}`;
    expect(
      await countOf(
        t.db,
        sql`select count(*)::int as n from rota_execution_logs where rota_executions_id = any(${keptIds}::int[])`,
      ),
    ).toBe(6);

    const audit = await rowsOf<{ client: number; entity: string }>(
      t.db,
      sql`select rota_clients_id as client, entity from audit_logs
           where entity like 'retention-%' order by rota_clients_id, entity`,
    );
    expect(audit).toEqual(
      [
        { client: c.defaultClientId, entity: 'retention-kept' },
        { client: c.otherClientId, entity: 'retention-kept' },
      ].sort((a, b) => a.client - b.client),
    );

    // The lists and the dashboard count what is left, exactly.
    expect(await totalOf(c.admin)).toBe(before.list - 2);
    expect(await totalOf(c.other)).toBe(before.otherList - 1);
    expect(await dashOf(c.admin)).toBe(before.dash - 2);
    expect(await totalOf(c.admin)).toBe(
      await countOf(
        t.db,
        sql`select count(*)::int as n from rota_executions
             where rota_clients_id = ${c.defaultClientId} and queued_at >= ${ago(250)}::timestamptz`,
      ),
    );
  });

  it('prunes spent sessions, reset codes, throttles and old rate-limit windows', async () => {
    const [me] = await rowsOf<{ id: number }>(
      t.db,
      sql`select users_id as id from users where access = ${ADMIN.access}`,
    );
    const user = me!.id;
    await t.db.execute(
      sql`insert into sessions (users_id, token_hash, expires_at, revoked_at) values
            (${user}, 'retention-expired', now() - interval '1 day', null),
            (${user}, 'retention-revoked', now() + interval '1 day', now() - interval '1 hour'),
            (${user}, 'retention-live', now() + interval '1 day', null)`,
    );
    await t.db.execute(
      sql`insert into password_reset_codes (users_id, code_hash, expires_at, used_at) values
            (${user}, 'retention-used', now() + interval '1 hour', now()),
            (${user}, 'retention-expired', now() - interval '1 hour', null),
            (${user}, 'retention-usable', now() + interval '1 hour', null)`,
    );
    await t.db.execute(
      sql`insert into rate_limits (key, window_start, count) values
            ('retention-old', now() - interval '2 days', 3),
            ('retention-new', now(), 1)`,
    );
    await t.db.execute(
      sql`insert into sign_in_throttles (key, failures, last_failure_at, blocked_until) values
            ('retention-old', 3, now() - interval '400 days', null),
            ('retention-new', 1, now(), null)`,
    );

    const report = await t.app.retention.prune();
    expect(report.sessions).toBeGreaterThanOrEqual(2);
    expect(report.reset_codes).toBeGreaterThanOrEqual(2);

    const keys = async (table: string, column: string) =>
      (
        await rowsOf<{ k: string }>(
          t.db,
          sql`select ${sql.identifier(column)} as k from ${sql.identifier(table)}
               where ${sql.identifier(column)} like 'retention-%' order by 1`,
        )
      ).map((r) => r.k);
    expect(await keys('sessions', 'token_hash')).toEqual(['retention-live']);
    expect(await keys('password_reset_codes', 'code_hash')).toEqual(['retention-usable']);
    expect(await keys('rate_limits', 'key')).toEqual(['retention-new']);
    expect(await keys('sign_in_throttles', 'key')).toEqual(['retention-new']);
    // Sessions in use still work.
    expect((await c.admin.post(`${AUTH}/me`)).status).toBe(200);
  });

  it('prunes a run an agent really ran, with its logs, once it is older than the retention', async () => {
    const robot = await createRobot(c.admin, 'Retention agent robot');
    const vm = await createVm(c.admin, 'Retention VM');
    const { token } = await createAgent(c.admin, 'Retention agent', vm);
    const agent = simulatedAgent(t.app, token);
    await agent.hello();
    const ran = await runNow(c.admin, { id: robot });
    // The first test's long-queued run is older, so it comes first: run it out of the way.
    let run = await agent.claim();
    while (run && run.execution_id !== ran) {
      await agent.finish(run.execution_id, run.attempt, 'success', 0);
      run = await agent.claim();
    }
    expect(run?.execution_id).toBe(ran);
    expect((await agent.logs(ran, run!.attempt, ['one', 'two', 'three'])).status).toBe(200);
    expect((await agent.finish(ran, run!.attempt, 'success', 0)).status).toBe(200);
    const waiting = await runNow(c.admin, { id: robot });

    await t.app.retention.prune();
    expect(await runsLeft([ran, waiting])).toBe(2);

    clock.set(new Date(NOW.getTime() + 91 * DAY));
    try {
      await t.app.retention.prune();
    } finally {
      clock.set(NOW);
    }
    expect(await runsLeft([ran])).toBe(0);
    expect(
      await countOf(
        t.db,
        sql`select count(*)::int as n from rota_execution_logs where rota_executions_id = ${ran}`,
      ),
    ).toBe(0);
    // Still queued: not ended, never pruned.
    expect((await executionOf(c.admin, waiting)).status).toBe('queued');
  });

  it('runs once a night: a second check the same night does nothing', async () => {
    clock.set(new Date(NOW.getTime() + 1000 * DAY));
    expect(await t.app.retention.runIfDue()).not.toBeNull();
    clock.advance(60 * 60 * 1000);
    expect(await t.app.retention.runIfDue()).toBeNull();
    clock.advance(12 * 60 * 60 * 1000);
    expect(await t.app.retention.runIfDue()).toBeNull();
    clock.advance(12 * 60 * 60 * 1000);
    expect(await t.app.retention.runIfDue()).not.toBeNull();
    // A clock set back (a stamp far ahead of now) does not stall the duty.
    clock.set(NOW);
    expect(await t.app.retention.runIfDue()).not.toBeNull();
    expect(await t.app.retention.runIfDue()).toBeNull();
  });
});

describe('client retention settings', () => {
  const update = (as: typeof c.admin, body: Record<string, unknown>) =>
    as.put(`${CLIENTS}/update`, {
      id: c.otherClientId,
      name: `Retention ${c.otherClientId}`,
      ...body,
    });

  it('are answered with their defaults and set by a platform administrator', async () => {
    const created = await c.admin.post(`${CLIENTS}/create`, { name: `Kept ${Date.now()}` });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ retention_days: 90, audit_retention_days: 365 });
    const custom = await c.admin.post(`${CLIENTS}/create`, {
      name: `Kept short ${Date.now()}`,
      retention_days: 7,
      audit_retention_days: 3650,
    });
    expect(custom.body.data).toMatchObject({ retention_days: 7, audit_retention_days: 3650 });

    expect((await update(c.admin, { retention_days: 1 })).status).toBe(204);
    const shown = await c.admin.post(`${CLIENTS}/show`, { id: c.otherClientId });
    // Left out: unchanged.
    expect(shown.body.data).toMatchObject({ retention_days: 1, audit_retention_days: 30 });
  });

  it('refuse 0, 3651 and strings in en and pt', async () => {
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    for (const [field, value] of [
      ['retention_days', 0],
      ['retention_days', 3651],
      ['audit_retention_days', 0],
      ['audit_retention_days', 3651],
    ] as const) {
      const en = await update(c.admin, { [field]: value });
      expect(en.status).toBe(400);
      expect(en.body.errors).toEqual([
        { field, message: 'Must be between 1 and 3650 days (ten years)' },
      ]);
      expect((await update(pt, { [field]: value })).body.errors).toEqual([
        { field, message: 'Deve estar entre 1 e 3650 dias (dez anos)' },
      ]);
    }
    const text = await update(c.admin, { retention_days: '30' });
    expect(text.status).toBe(400);
    expect(text.body.errors).toEqual([{ field: 'retention_days', message: 'Must be a number' }]);
    expect((await update(pt, { audit_retention_days: 'x' })).body.errors).toEqual([
      { field: 'audit_retention_days', message: 'Deve ser um número' },
    ]);
    expect(
      (await c.admin.post(`${CLIENTS}/create`, { name: 'Bad', retention_days: 0 })).status,
    ).toBe(400);
  });

  it('are for platform administrators only', async () => {
    expect((await update(c.other, { retention_days: 30 })).status).toBe(403);
    expect((await update(c.limited, { audit_retention_days: 30 })).status).toBe(403);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('retention across two instances on PostgreSQL', () => {
  it('runs once per cluster: of two instances checking together, one prunes', async () => {
    const { first, second } = await createTwoInstances();
    try {
      const admin = client(first.app, {
        token: await signIn(first.app, ADMIN.access, ADMIN.password),
      });
      expect((await admin.post(`${AUTH}/me`)).status).toBe(200);
      const results = await Promise.all([
        first.app.retention.runIfDue(),
        second.app.retention.runIfDue(),
        first.app.retention.runIfDue(),
        second.app.retention.runIfDue(),
      ]);
      expect(results.filter((r) => r !== null)).toHaveLength(1);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
