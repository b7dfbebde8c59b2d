import { sql } from 'drizzle-orm';
import { SEARCH_COUNT_LIMIT } from '@rota/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * A search of the activity list counts its matches up to SEARCH_COUNT_LIMIT: past it the total
 * is the limit and says so, below it the total is exact; either way the page is the same.
 */
let t: TestApp;
let c: Tenants;
let many: number;
let few: number;

async function queue(robot: number, runs: number) {
  await t.db.execute(sql`
    insert into rota_executions (rota_clients_id, rota_robots_id, status, trigger, priority,
           timeout_seconds, attempts, exit_code, queued_at, started_at, ended_at)
    select ${c.defaultClientId}, ${robot}, 'success', 'manual', 50, 300, 1, 0,
           now() - g * interval '1 second', now() - g * interval '1 second', now() - g * interval '1 second'
      from generate_series(1, ${runs}) g`);
}

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t);
  many = await createRobot(c.admin, 'Invoices of the north');
  few = await createRobot(c.admin, 'Payroll of the south');
  await queue(many, SEARCH_COUNT_LIMIT + 5);
  await queue(few, 7);
  // The other client's matching runs are neither listed nor counted.
  const theirs = await createRobot(c.other, 'Invoices of the other client');
  await t.db.execute(sql`
    insert into rota_executions (rota_clients_id, rota_robots_id, status, trigger, priority, timeout_seconds, attempts)
    select ${c.otherClientId}, ${theirs}, 'queued', 'manual', 50, 300, 0 from generate_series(1, 3)`);
});
afterAll(() => t?.close());

describe('the activity search total', () => {
  it('stops at the limit and says the total is capped', async () => {
    const res = await c.admin.post(`${ACTIVITY}/index`, { search: 'invoices', per_page: 20 });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(20);
    expect(res.body.meta).toMatchObject({ total: SEARCH_COUNT_LIMIT, total_capped: true });
    expect(
      res.body.data.every((run: { rota_robots_id: number }) => run.rota_robots_id === many),
    ).toBe(true);
  });

  it('is exact below the limit, and not marked', async () => {
    const res = await c.admin.post(`${ACTIVITY}/index`, { search: 'payroll', per_page: 5 });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(5);
    expect(res.body.meta.total).toBe(7);
    expect(res.body.meta).not.toHaveProperty('total_capped');
  });

  it('keeps the other client out of the count', async () => {
    const res = await c.other.post(`${ACTIVITY}/index`, { search: 'invoices' });
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(3);
  });

  it('counts an unsearched list exactly past the limit', async () => {
    const res = await c.admin.post(`${ACTIVITY}/index`, { per_page: 1 });
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(SEARCH_COUNT_LIMIT + 5 + 7);
    expect(res.body.meta).not.toHaveProperty('total_capped');
  });
});
