import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { openTestDatabase } from './helpers/database.js';
import { ACTIVITY, executionOf, runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants } from './helpers/tenants.js';
import { createTestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * Robots' output lines are written on PostgreSQL through a pool whose commits do not wait for
 * the WAL's flush; every other write (results, claims, leases) keeps waiting for it.
 */
describe.skipIf(!process.env.DATABASE_URL)('where output lines are committed', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database?.close());

  const setting = async (db: Database['db']) =>
    (
      (await db.execute(sql`show synchronous_commit`)) as unknown as {
        rows: { synchronous_commit: string }[];
      }
    ).rows[0]!.synchronous_commit;

  it('does not wait for the flush on the log pool, and does everywhere else', async () => {
    expect(await setting(database.logDb!)).toBe('off');
    expect(await setting(database.db)).toBe('on');
  });

  it('stores a batch through the log pool and finishes the run on the other', async () => {
    const t = await createTestApp({ engine: { loop: false } });
    try {
      const c = await setUpTenants(t);
      const robot = await createRobot(c.admin, 'Log pool robot');
      const vm = await createVm(c.admin, 'Log pool VM');
      const agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Log pool agent', vm)).token);
      const id = await runNow(c.admin, { id: robot });
      const run = await agent.claim();
      expect(run?.execution_id).toBe(id);
      expect((await agent.logs(id, 1, ['line 1', 'line 2', 'line 3'])).status).toBe(200);
      expect((await agent.finish(id, 1, 'success', 0)).status).toBe(200);
      expect((await executionOf(c.admin, id)).status).toBe('success');
      const log = await c.admin.post(`${ACTIVITY}/logs`, { id });
      expect(log.status).toBe(200);
      expect(JSON.stringify(log.body.data)).toContain('line 3');
    } finally {
      await t.close();
    }
  });
});
