import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STATUS_ITEMS, EXECUTION_STATUSES, type ExecutionStatus } from '@rota/contract';
import { auditLogs, rotaExecutions, rotaStatusItems } from '../src/db/schema/index.js';
import { createProfile, createUser } from './helpers/fixtures.js';
import { createRobot } from './helpers/robots.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

const B = '/api/rota/status/item/api/v1';
const DASHBOARD = '/api/rota/dashboard/api/v1/index';
let t: TestApp;
let c: Tenants;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['USUARIOS.LIST'] });
});
afterAll(() => t.close());

type Caller = Tenants['admin'];
type Item = { rota_status_items_id: number; status: ExecutionStatus; category: string };

async function items(as: Caller = c.admin): Promise<Item[]> {
  const res = await as.post(`${B}/index`, {});
  expect(res.status).toBe(200);
  return res.body.data as Item[];
}

async function itemOf(status: ExecutionStatus, as: Caller = c.admin): Promise<Item> {
  return (await items(as)).find((i) => i.status === status)!;
}

/** A member of `clientId` holding every USUARIOS permission. */
async function usersAdminOf(clientId: number) {
  const profile = await createProfile(t.db, clientId, `Item admins ${Math.random()}`, [
    'USUARIOS.LIST',
    'USUARIOS.UPDATE',
  ]);
  const access = `itemadmin${clientId}${Math.random().toString(36).slice(2, 6)}`;
  await createUser(t.db, {
    access,
    password: 'item-admin-password',
    memberships: [{ clientId, profileId: profile.profiles_id }],
  });
  return client(t.app, { token: await signIn(t.app, access, 'item-admin-password') });
}

function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

describe('status items', () => {
  it('lists the seeded item of every status, in lifecycle order, with the defaults', async () => {
    const res = await c.admin.post(`${B}/index`, {});
    expect(res.body.meta).toEqual({ total: 7, current_page: 1, per_page: 20 });
    expect(
      res.body.data.map((i: Item & { label: string | null; color: string }) => ({
        status: i.status,
        category: i.category,
        label: i.label,
        color: i.color,
      })),
    ).toEqual(DEFAULT_STATUS_ITEMS);
    const page = await c.admin.post(`${B}/index`, { per_page: 3, page: 3 });
    expect(page.body.meta).toEqual({ total: 7, current_page: 3, per_page: 3 });
    expect(page.body.data.map((i: Item) => i.status)).toEqual(['cancelled']);
    const byCategory = await c.admin.post(`${B}/index`, { sort: 'category', order: 'desc' });
    expect(byCategory.body.data.map((i: Item) => i.category)).toEqual([
      'others',
      'others',
      'failure',
      'failure',
      'failure',
      'process',
      'process',
    ]);
    const search = await c.admin.post(`${B}/index`, { search: 'error' });
    expect(search.body.data.map((i: Item) => i.status)).toEqual([
      'business_error',
      'application_error',
    ]);
  });

  it('round-trips an update (colour lowercased, blank label back to null) and audits it', async () => {
    const item = await itemOf('timeout');
    const shown = await c.admin.post(`${B}/show`, { id: item.rota_status_items_id });
    expect(shown.body.data).toMatchObject({ status: 'timeout', category: 'failure', label: null });

    const id = item.rota_status_items_id;
    const res = await c.admin.put(`${B}/update`, { id, label: ' Too slow ', color: '#ABCDEF' });
    expect(res.status).toBe(204);
    expect((await c.admin.post(`${B}/show`, { id })).body.data).toMatchObject({
      status: 'timeout',
      category: 'failure',
      label: 'Too slow',
      color: '#abcdef',
    });
    // Left out: kept.
    await c.admin.put(`${B}/update`, { id, category: 'others' });
    expect((await c.admin.post(`${B}/show`, { id })).body.data).toMatchObject({
      category: 'others',
      label: 'Too slow',
      color: '#abcdef',
    });
    await c.admin.put(`${B}/update`, { id, label: '', category: 'failure' });
    expect((await c.admin.post(`${B}/show`, { id })).body.data.label).toBeNull();

    const audit = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entity, 'status_item'), eq(auditLogs.entity_id, String(id))))
      .orderBy(auditLogs.audit_logs_id);
    expect(audit).toHaveLength(3);
    expect(audit[0]).toMatchObject({
      action: 'update',
      rota_clients_id: c.defaultClientId,
      user_name: expect.any(String),
    });
    expect(audit[0]!.before).toMatchObject({ label: null, color: DEFAULT_STATUS_ITEMS[5]!.color });
    expect(audit[0]!.after).toMatchObject({ label: 'Too slow', color: '#abcdef' });
    expect(audit[1]!.after).toMatchObject({ category: 'others' });
  });

  it('says which fields are wrong, in the caller’s language', async () => {
    const { rota_status_items_id: id } = await itemOf('queued');
    const en = await c.admin.put(`${B}/update`, {
      id,
      category: 'idle',
      color: 'blue',
      label: 'x'.repeat(61),
    });
    expect(en.status).toBe(400);
    expect(en.body.errors).toEqual([
      { field: 'category', message: 'Invalid value' },
      { field: 'label', message: 'Too long' },
      { field: 'color', message: 'Must be a colour written #rrggbb' },
    ]);
    const pt = client(t.app, {
      token: await signIn(t.app, ADMIN.access, ADMIN.password),
      lang: 'pt',
    });
    const inPt = await pt.put(`${B}/update`, { id, color: '#12345' });
    expect(inPt.body.errors).toEqual([
      { field: 'color', message: 'Deve ser uma cor no formato #rrggbb' },
    ]);
    expect((await c.admin.post(`${B}/index`, { sort: 'label' })).status).toBe(400);
    // No create or delete: the items are the statuses.
    expect((await c.admin.post(`${B}/create`, { status: 'queued' })).status).toBe(404);
    expect((await c.admin.post(`${B}/delete`, { id })).status).toBe(404);
  });

  it('needs USUARIOS.LIST to read and USUARIOS.UPDATE to change', async () => {
    const { rota_status_items_id: id } = await itemOf('success');
    expect((await c.limited.post(`${B}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${B}/show`, { id })).status).toBe(200);
    expect((await c.limited.put(`${B}/update`, { id, color: '#000000' })).status).toBe(403);
    const none = await setUpTenants(t, { permissions: ['HISTORIC.LIST'] });
    expect((await none.limited.post(`${B}/index`, {})).status).toBe(403);
    expect((await none.limited.post(`${B}/show`, { id })).status).toBe(403);
    expect((await none.limited.put(`${B}/update`, { id, color: '#000000' })).status).toBe(403);
    // The palette needs only a session in the client.
    const palette = await none.limited.post(`${B}/palette`);
    expect(palette.status).toBe(200);
    expect(palette.body.data).toHaveLength(EXECUTION_STATUSES.length);
    expect((await client(t.app).post(`${B}/palette`)).status).toBe(401);
    expect((await itemOf('success')).category).toBe('others');
  });

  it('answers 404 for another client’s item, and gives a client without items the defaults', async () => {
    const fresh = await setUpTenants(t);
    const stored = () =>
      t.db
        .select()
        .from(rotaStatusItems)
        .where(eq(rotaStatusItems.rota_clients_id, fresh.otherClientId));
    // A client made without items (as test fixtures make them) still reads the defaults…
    expect(await stored()).toHaveLength(0);
    const palette = await fresh.other.post(`${B}/palette`);
    expect(palette.body.data).toEqual(DEFAULT_STATUS_ITEMS);
    expect(await stored()).toHaveLength(0);
    // …and gets its own items the first time they are listed.
    const admin = await usersAdminOf(fresh.otherClientId);
    const theirs = await items(admin);
    expect(theirs.map((i) => i.status)).toEqual([...EXECUTION_STATUSES]);
    expect(await stored()).toHaveLength(7);
    expect(await items(admin)).toEqual(theirs);

    const mine = await itemOf('queued');
    expect((await admin.post(`${B}/show`, { id: mine.rota_status_items_id })).status).toBe(404);
    const stolen = await admin.put(`${B}/update`, {
      id: mine.rota_status_items_id,
      color: '#000000',
    });
    expect(stolen.status).toBe(404);
    expect(
      (await c.admin.post(`${B}/show`, { id: mine.rota_status_items_id })).body.data.color,
    ).toBe(DEFAULT_STATUS_ITEMS[0]!.color);
    const own = theirs.find((i) => i.status === 'queued')!;
    expect((await c.admin.post(`${B}/show`, { id: own.rota_status_items_id })).status).toBe(404);
  });

  it('changes the dashboard categories and the failing robots of the client only', async () => {
    const fresh = await setUpTenants(t);
    const admin = await usersAdminOf(fresh.otherClientId);
    const robotsAdmin = fresh.other;
    const slow = await createRobot(robotsAdmin, 'Slow robot');
    const stopped = await createRobot(robotsAdmin, 'Stopped robot');
    await createRobot(robotsAdmin, 'Idle robot');
    const run = (robot: number, status: ExecutionStatus) =>
      t.db.insert(rotaExecutions).values({
        rota_clients_id: fresh.otherClientId,
        rota_robots_id: robot,
        status,
        trigger: 'manual',
        priority: 0,
        timeout_seconds: 60,
      });
    await run(slow, 'timeout');
    await run(stopped, 'cancelled');
    const range = { startDate: today(), endDate: today() };
    const dashboard = async () => (await robotsAdmin.post(DASHBOARD, range)).body.data;

    const before = await dashboard();
    expect(before.categories).toEqual({ process: 0, failure: 1, others: 1, idle: 1 });
    expect(before.failing_robots.map((r: { rota_robots_id: number }) => r.rota_robots_id)).toEqual([
      slow,
    ]);

    const timeout = await itemOf('timeout', admin);
    const cancelled = await itemOf('cancelled', admin);
    expect(
      (await admin.put(`${B}/update`, { id: timeout.rota_status_items_id, category: 'others' }))
        .status,
    ).toBe(204);
    const moved = await dashboard();
    expect(moved.categories).toEqual({ process: 0, failure: 0, others: 2, idle: 1 });
    expect(moved.failing_robots).toEqual([]);

    await admin.put(`${B}/update`, { id: cancelled.rota_status_items_id, category: 'failure' });
    const swapped = await dashboard();
    expect(swapped.categories).toEqual({ process: 0, failure: 1, others: 1, idle: 1 });
    expect(swapped.failing_robots).toEqual([
      expect.objectContaining({ rota_robots_id: stopped, failures: 1, executions: 1 }),
    ]);
    const palette = (await robotsAdmin.post(`${B}/palette`)).body.data;
    expect(palette.find((p: Item) => p.status === 'cancelled').category).toBe('failure');

    // With no status under Failure at all, nothing fails.
    for (const status of ['business_error', 'application_error', 'cancelled'] as const) {
      const { rota_status_items_id: id } = await itemOf(status, admin);
      await admin.put(`${B}/update`, { id, category: 'process' });
    }
    const noFailures = await dashboard();
    expect(noFailures.categories).toEqual({ process: 1, failure: 0, others: 1, idle: 1 });
    expect(noFailures.failing_robots).toEqual([]);

    // The Default client's mapping did not move.
    expect((await itemOf('timeout')).category).toBe('failure');
    expect((await itemOf('cancelled')).category).toBe('others');
  });
});
