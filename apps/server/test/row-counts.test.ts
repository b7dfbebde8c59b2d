import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountedTable } from '../src/lib/row-counts.js';
import { createRobot } from './helpers/robots.js';
import { createTeam, signedInUser } from './helpers/teams.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * Unfiltered list totals come from `row_counts`, kept by triggers (migration 0008): after every
 * kind of write, cascade and soft delete, each must equal a real count.
 */

let t: TestApp;
let c: Tenants;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t);
});
afterAll(() => t.close());

const TABLES: Record<CountedTable, { base: string; live?: string }> = {
  rota_robots: { base: '/api/rota/robot/api/v1' },
  rota_robot_fields: { base: '/api/rota/robot/field/api/v1' },
  rota_tasks: { base: '/api/rota/task/api/v1' },
  rota_vms: { base: '/api/rota/vm/api/v1' },
  rota_nodes: { base: '/api/rota/node/api/v1' },
  rota_parameters: { base: '/api/rota/parameter/api/v1' },
  rota_schedulings: { base: '/api/rota/scheduling/api/v1', live: 'deleted_at is null' },
};

async function rows(query: ReturnType<typeof sql>) {
  return ((await t.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
}

/** For each client and table: the maintained count, a real count, and the API's total. */
async function expectExact() {
  for (const [table, { base, live }] of Object.entries(TABLES)) {
    for (const [clientId, as] of [
      [c.defaultClientId, c.admin],
      [c.otherClientId, c.other],
    ] as const) {
      const [real] = await rows(
        sql`select count(*)::int as n from ${sql.identifier(table)}
             where rota_clients_id = ${clientId} ${live ? sql`and ${sql.raw(live)}` : sql``}`,
      );
      const [kept] = await rows(
        sql`select coalesce(sum(n), 0)::int as n from row_counts
             where rota_clients_id = ${clientId} and table_name = ${table}`,
      );
      expect(kept!.n, `${table} of client ${clientId}`).toBe(real!.n);
      const listed = await as.post(`${base}/index`, {});
      expect(listed.status).toBe(200);
      expect(listed.body.meta.total, `${table} total of client ${clientId}`).toBe(real!.n);
    }
  }
}

describe('row counts behind unfiltered list totals', () => {
  it('stay exact through creates, deletes, cascades, bulk deletes and soft deletes', async () => {
    await expectExact();

    const robot = await createRobot(c.admin, 'Counted robot');
    const doomed = await createRobot(c.admin, 'Counted robot to delete');
    await createRobot(c.other, 'Other counted robot');
    for (const id of [robot, doomed]) {
      await c.admin.post('/api/rota/robot/field/api/v1/create', {
        rota_robots_id: id,
        name: 'customer',
        label: 'Customer',
      });
      for (let i = 0; i < 3; i++) {
        await c.admin.post('/api/rota/task/api/v1/create', {
          rota_robots_id: id,
          expiration_date: '2099-01-01',
        });
      }
    }
    const vm = await createVm(c.admin, 'Counted VM');
    await createAgent(c.admin, 'Counted agent', vm);
    await c.admin.post('/api/rota/parameter/api/v1/create', { name: 'COUNTED', value: 'x' });
    const scheduling = await c.admin.post('/api/rota/scheduling/api/v1/create', {
      name: 'Counted scheduling',
      rota_robots_id: robot,
      interval_minutes: 60,
      timeout_minutes: 5,
      active: false,
    });
    expect(scheduling.status).toBe(201);
    await expectExact();

    // A robot's delete cascades to its fields and tasks.
    expect((await c.admin.post('/api/rota/robot/api/v1/delete', { id: doomed })).status).toBe(202);
    // Bulk delete of tasks.
    const tasks = await c.admin.post('/api/rota/task/api/v1/index', { rota_robots_id: robot });
    await c.admin.post('/api/rota/task/api/v1/delete_many', {
      ids: tasks.body.data.slice(0, 2).map((task: { rota_tasks_id: number }) => task.rota_tasks_id),
    });
    // A VM's delete with its agent gone first; a parameter's delete.
    await expectExact();

    // Soft delete and restore move a scheduling out of and back into the live count.
    const id = scheduling.body.data.rota_schedulings_id;
    await c.admin.post('/api/rota/scheduling/api/v1/delete', { id });
    await expectExact();
    const deleted = await c.admin.post('/api/rota/scheduling/api/v1/index', {
      deleted: 'deleted',
    });
    expect(deleted.body.meta.total).toBe(1);
    await c.admin.post('/api/rota/scheduling/api/v1/restore', { id });
    await expectExact();
  });

  it('is not used for a team member, who sees fewer robots than the client has', async () => {
    const seen = await createRobot(c.admin, 'Seen by the team');
    await createRobot(c.admin, 'Hidden from the team');
    const member = await signedInUser(t, c.defaultClientId, 'counted.member', {
      permissions: ['ROBOS.LIST'],
    });
    await createTeam(c.admin, 'Counted team', { robots: [seen], users: [member.id] });
    const listed = await member.as.post('/api/rota/robot/api/v1/index', {});
    expect(listed.body.meta.total).toBe(1);
    expect(listed.body.data.map((r: { name: string }) => r.name)).toEqual(['Seen by the team']);
    // Searches and filters count for real too.
    const searched = await c.admin.post('/api/rota/robot/api/v1/index', { search: 'by the team' });
    expect(searched.body.meta.total).toBe(1);
    await expectExact();
  });

  it("keep the robots' active and inactive totals exact through creates, switches and deletes", async () => {
    /** For each client: the API's totals filtered on `active`, and what a real count says. */
    async function expectActiveExact() {
      for (const [clientId, as] of [
        [c.defaultClientId, c.admin],
        [c.otherClientId, c.other],
      ] as const) {
        for (const active of [true, false]) {
          const [real] = await rows(
            sql`select count(*)::int as n from rota_robots
                 where rota_clients_id = ${clientId} and active = ${active}`,
          );
          const listed = await as.post('/api/rota/robot/api/v1/index', { active });
          expect(listed.status).toBe(200);
          expect(listed.body.meta.total, `active ${active}, client ${clientId}`).toBe(real!.n);
          expect(listed.body.data.every((r: { active: boolean }) => r.active === active)).toBe(
            true,
          );
        }
      }
    }
    await expectActiveExact();

    const created = await c.admin.post('/api/rota/robot/api/v1/create', {
      name: 'Created inactive',
      executor: 'node main.js',
      active: false,
    });
    expect(created.status).toBe(201);
    const switched = await createRobot(c.admin, 'Switched off and on');
    const otherOff = await createRobot(c.other, 'Other switched off');
    const doomed = await createRobot(c.admin, 'Inactive, then deleted');
    for (const [as, id] of [
      [c.admin, switched],
      [c.other, otherOff],
      [c.admin, doomed],
    ] as const) {
      const off = await as.put('/api/rota/robot/api/v1/update', { id, active: false });
      expect(off.status).toBe(204);
    }
    await expectActiveExact();

    // An update that leaves `active` as it was changes no count; a switch back on does.
    await c.admin.put('/api/rota/robot/api/v1/update', { id: switched, description: 'still off' });
    await expectActiveExact();
    await c.admin.put('/api/rota/robot/api/v1/update', { id: switched, active: true });
    expect((await c.admin.post('/api/rota/robot/api/v1/delete', { id: doomed })).status).toBe(202);
    await expectActiveExact();

    const [kept] = await rows(
      sql`select sum(n)::int as n from row_counts
           where rota_clients_id = ${c.otherClientId} and table_name = 'rota_robots.inactive'`,
    );
    expect(kept!.n).toBeGreaterThan(0);
  });

  it("gives a search's total on a short page, a full page, the last page and past the end", async () => {
    for (const name of ['Pager one', 'Pager two', 'Pager three']) await createRobot(c.admin, name);
    await createRobot(c.other, 'Pager of the other client');
    const cases = [
      { page: 1, per_page: 5, rows: 3 }, // short first page: the page tells the total
      { page: 1, per_page: 2, rows: 2 }, // full page: counted
      { page: 2, per_page: 2, rows: 1 }, // short last page: offset plus its rows
      { page: 3, per_page: 2, rows: 0 }, // past the end: counted
      { page: 2, per_page: 3, rows: 0 }, // past the end by one full page: counted
    ];
    for (const { page, per_page, rows: n } of cases) {
      const listed = await c.admin.post('/api/rota/robot/api/v1/index', {
        search: 'pager',
        page,
        per_page,
      });
      expect(listed.status).toBe(200);
      expect(listed.body.data, `page ${page} of ${per_page}`).toHaveLength(n);
      expect(listed.body.meta.total, `page ${page} of ${per_page}`).toBe(3);
    }
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'lets two connections add rows of one client at once, neither waiting for the other',
    async () => {
      const pool = (t.db as unknown as { $client: pg.Pool }).$client;
      // Two sessions whose counts land in different slots (the backend's pid modulo 16).
      const sessions: { client: pg.Client; slot: number }[] = [];
      while (new Set(sessions.map((s) => s.slot)).size < 2) {
        const client = new pg.Client(pool.options);
        await client.connect();
        const { rows: pid } = await client.query<{ slot: number }>(
          'select pg_backend_pid() % 16 as slot',
        );
        sessions.push({ client, slot: pid[0]!.slot });
      }
      const first = sessions[0]!;
      const second = sessions.find((s) => s.slot !== first.slot)!;
      const insert =
        'insert into rota_robots (rota_clients_id, name, executor) values ($1, $2, $3)';
      try {
        await first.client.query('begin');
        await first.client.query(insert, [c.defaultClientId, 'Slot robot one', 'x']);
        // The first transaction is still open: a shared counter row would make this wait, and
        // the lock timeout turn the wait into an error.
        await second.client.query('begin');
        await second.client.query("set local lock_timeout = '1ms'");
        await second.client.query(insert, [c.defaultClientId, 'Slot robot two', 'x']);
        await second.client.query('commit');
        await first.client.query('commit');
      } finally {
        for (const { client } of sessions) await client.end();
      }
      await expectExact();
    },
  );
});
