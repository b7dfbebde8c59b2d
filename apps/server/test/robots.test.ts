import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

const B = '/api/rota/robot/api/v1';
let t: TestApp;
let c: Tenants;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
});
afterAll(() => t.close());

const robot = (name: string, extra: object = {}) => ({ name, executor: 'node main.js', ...extra });

describe('robots', () => {
  it('round-trips create, show, update, list and delete with the generic answers', async () => {
    const created = await c.admin.post(
      `${B}/create`,
      robot('Invoice reader', {
        description: 'Reads invoices',
        remote_root: 'C:\\robots\\invoices',
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({
      name: 'Invoice reader',
      executor: 'node main.js',
      remote_root: 'C:\\robots\\invoices',
      active: true,
      current_version: null,
    });
    const id = created.body.data.rota_robots_id;

    const shown = await c.admin.post(`${B}/show`, { id });
    expect(shown.body.data.description).toBe('Reads invoices');

    const updated = await c.admin.put(`${B}/update`, { id, active: false, description: '' });
    expect(updated.status).toBe(204);
    const after = await c.admin.post(`${B}/show`, { id });
    expect(after.body.data).toMatchObject({
      active: false,
      description: null,
      name: 'Invoice reader',
    });

    const removed = await c.admin.post(`${B}/delete`, { id });
    expect(removed.status).toBe(202);
    expect(removed.body.message).toBe('Removed!');
    expect((await c.admin.post(`${B}/show`, { id })).status).toBe(404);
  });

  it('paginates, searches, filters and sorts', async () => {
    for (let i = 1; i <= 23; i++) {
      await c.admin.post(
        `${B}/create`,
        robot(`Batch ${String(i).padStart(2, '0')}`, { active: i % 2 === 0 }),
      );
    }
    const page = await c.admin.post(`${B}/index`, { search: 'batch', page: 3, per_page: 10 });
    expect(page.body.meta).toEqual({ total: 23, current_page: 3, per_page: 10 });
    expect(page.body.data.map((r: { name: string }) => r.name)).toEqual([
      'Batch 21',
      'Batch 22',
      'Batch 23',
    ]);
    const active = await c.admin.post(`${B}/index`, {
      search: 'batch',
      active: true,
      sort: 'name',
      order: 'desc',
      per_page: 3,
    });
    expect(active.body.meta.total).toBe(11);
    expect(active.body.data.map((r: { name: string }) => r.name)).toEqual([
      'Batch 22',
      'Batch 20',
      'Batch 18',
    ]);
  });

  it('answers a search with the same robot rows as the plain list, escaping % and _', async () => {
    await c.admin.post(`${B}/create`, robot('Percent 100%_done'));
    await c.admin.post(`${B}/create`, robot('Percent 1000 done'));
    const found = await c.admin.post(`${B}/index`, { search: '100%_' });
    expect(found.body.data.map((r: { name: string }) => r.name)).toEqual(['Percent 100%_done']);
    const plain = await c.admin.post(`${B}/index`, { per_page: 100, sort: 'name', order: 'desc' });
    const same = plain.body.data.find((r: { name: string }) => r.name === 'Percent 100%_done');
    expect(found.body.data[0]).toEqual(same);
  });

  it('totals a search right when its matches fill a page exactly, overflow it, or end before it', async () => {
    for (let i = 1; i <= 6; i++) await c.admin.post(`${B}/create`, robot(`Edge ${i}`));
    const totalOf = async (body: object) => {
      const res = await c.admin.post(`${B}/index`, { search: 'edge', ...body });
      return {
        total: res.body.meta.total,
        names: res.body.data.map((r: { name: string }) => r.name),
      };
    };
    // Six matches: a page of six ends the list, as does a second page of three.
    expect(await totalOf({ per_page: 6 })).toEqual({
      total: 6,
      names: ['Edge 1', 'Edge 2', 'Edge 3', 'Edge 4', 'Edge 5', 'Edge 6'],
    });
    expect(await totalOf({ per_page: 3, page: 2 })).toEqual({
      total: 6,
      names: ['Edge 4', 'Edge 5', 'Edge 6'],
    });
    // One short of the matches: the page is full and the list goes on.
    expect(await totalOf({ per_page: 5 })).toEqual({
      total: 6,
      names: ['Edge 1', 'Edge 2', 'Edge 3', 'Edge 4', 'Edge 5'],
    });
    // Past the end: no rows, and the total still counted.
    expect(await totalOf({ per_page: 3, page: 4 })).toEqual({ total: 6, names: [] });
    expect(await totalOf({ search: 'no such edge' })).toEqual({ total: 0, names: [] });
  });

  it('pages a search the same whether its matches are few (read at once) or many (read in order)', async () => {
    // 202 matches: over the 200 a search answers from its matches alone, and over the 201 it
    // reads to know; 200 of them active.
    const names = Array.from({ length: 202 }, (_, i) => `Swarm ${String(i).padStart(3, '0')}`);
    const inactive = ['Swarm 000', 'Swarm 201'];
    for (let i = 0; i < names.length; i += 20) {
      await Promise.all(
        names
          .slice(i, i + 20)
          .map((name) =>
            c.admin.post(`${B}/create`, robot(name, { active: !inactive.includes(name) })),
          ),
      );
    }
    const pages = async (body: object, perPage: number) => {
      const seen: string[] = [];
      const totals = new Set<number>();
      for (let page = 1; ; page++) {
        const res = await c.admin.post(`${B}/index`, { ...body, page, per_page: perPage });
        expect(res.status).toBe(200);
        totals.add(res.body.meta.total);
        if (res.body.data.length === 0) break;
        seen.push(...res.body.data.map((r: { name: string }) => r.name));
      }
      return { seen, totals: [...totals] };
    };
    // Many: in order, counted.
    expect(await pages({ search: 'swarm' }, 50)).toEqual({ seen: names, totals: [202] });
    // Few (200 active, 2 inactive, 100 named "Swarm 1…"): from the matches, in the same order.
    expect(await pages({ search: 'swarm', active: true }, 50)).toEqual({
      seen: names.slice(1, 201),
      totals: [200],
    });
    expect(await pages({ search: 'swarm', active: false }, 50)).toEqual({
      seen: inactive,
      totals: [2],
    });
    expect(await pages({ search: 'swarm 1', sort: 'name', order: 'desc' }, 30)).toEqual({
      seen: names.slice(100, 200).reverse(),
      totals: [100],
    });
    // Same rows either way: a robot read among few matches equals its row in the plain list.
    const few = await c.admin.post(`${B}/index`, { search: 'swarm 042' });
    const many = await c.admin.post(`${B}/index`, { search: 'swarm', per_page: 100 });
    expect(few.body.data).toEqual([
      many.body.data.find((r: { name: string }) => r.name === 'Swarm 042'),
    ]);
    expect(few.body.meta.total).toBe(1);
  });

  it('answers an unsearched list’s total with its page, on every shape, past the end and with no robot', async () => {
    // A client of its own, so the totals are this test's robots alone.
    const { other: admin } = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
    const list = async (body: object) => {
      const res = await admin.post(`${B}/index`, body);
      return { total: res.body.meta.total, rows: res.body.data.length };
    };
    expect(await list({})).toEqual({ total: 0, rows: 0 });
    expect(await list({ active: true })).toEqual({ total: 0, rows: 0 });
    expect(await list({ active: false })).toEqual({ total: 0, rows: 0 });
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const created = await admin.post(`${B}/create`, robot(`Counted ${i}`, { active: i <= 2 }));
      ids.push(created.body.data.rota_robots_id);
    }
    expect(await list({ per_page: 2 })).toEqual({ total: 5, rows: 2 });
    expect(await list({ active: true })).toEqual({ total: 2, rows: 2 });
    expect(await list({ active: false, per_page: 2 })).toEqual({ total: 3, rows: 2 });
    expect(await list({ sort: 'updated_at', order: 'desc', active: true })).toEqual({
      total: 2,
      rows: 2,
    });
    // Past the end: no row carries the total, which is still read.
    expect(await list({ page: 9 })).toEqual({ total: 5, rows: 0 });
    expect(await list({ active: false, page: 3, per_page: 2 })).toEqual({ total: 3, rows: 0 });
    // The totals follow a change at once.
    await admin.put(`${B}/update`, { id: ids[0], active: false });
    await admin.post(`${B}/delete`, { id: ids[4] });
    expect(await list({})).toEqual({ total: 4, rows: 4 });
    expect(await list({ active: true })).toEqual({ total: 1, rows: 1 });
    expect(await list({ active: false })).toEqual({ total: 3, rows: 3 });
  });

  it('says which fields are wrong, in the caller’s language', async () => {
    const en = await c.admin.post(`${B}/create`, { name: ' ', executor: '' });
    expect(en.status).toBe(400);
    expect(en.body.errors).toEqual([
      { field: 'name', message: 'Required process name' },
      { field: 'executor', message: 'Required executor' },
    ]);
    const pt = await c.admin.post(`${B}/create`, {});
    expect(pt.status).toBe(400);
    const tooLong = await c.admin.post(`${B}/create`, robot('x'.repeat(121)));
    expect(tooLong.body.errors).toEqual([{ field: 'name', message: 'Too long' }]);
  });

  it('refuses a duplicate name in the client with 409, but not in another client', async () => {
    expect((await c.admin.post(`${B}/create`, robot('Unique one'))).status).toBe(201);
    const dup = await c.admin.post(`${B}/create`, robot('UNIQUE ONE'));
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      { field: 'name', message: 'A robot with this name already exists' },
    ]);
    expect((await c.other.post(`${B}/create`, robot('Unique one'))).status).toBe(201);
  });

  it('needs ROBOS permissions: list alone can read but not write', async () => {
    expect((await c.limited.post(`${B}/index`, {})).status).toBe(200);
    const denied = await c.limited.post(`${B}/create`, robot('Nope'));
    expect(denied.status).toBe(403);
    const some = (await c.admin.post(`${B}/index`, {})).body.data[0];
    expect(
      (await c.limited.put(`${B}/update`, { id: some.rota_robots_id, name: 'x' })).status,
    ).toBe(403);
    expect((await c.limited.post(`${B}/delete`, { id: some.rota_robots_id })).status).toBe(403);
  });

  it('answers 404 for another client’s robot on every call', async () => {
    const mine = (await c.admin.post(`${B}/create`, robot('Private robot'))).body.data
      .rota_robots_id;
    expect((await c.other.post(`${B}/show`, { id: mine })).status).toBe(404);
    expect((await c.other.put(`${B}/update`, { id: mine, name: 'Stolen' })).status).toBe(404);
    expect((await c.other.post(`${B}/delete`, { id: mine })).status).toBe(404);
    const list = await c.other.post(`${B}/index`, { search: 'Private robot' });
    expect(list.body.meta.total).toBe(0);
    expect((await c.admin.post(`${B}/show`, { id: mine })).body.data.name).toBe('Private robot');
  });

  it('refuses to delete a robot with a live scheduling (409), and takes deleted ones along', async () => {
    const id = (await c.admin.post(`${B}/create`, robot('Scheduled robot'))).body.data
      .rota_robots_id;
    const scheduling = await c.admin.post('/api/rota/scheduling/api/v1/create', {
      name: 'Every hour',
      rota_robots_id: id,
      interval_minutes: 60,
      timeout_minutes: 10,
    });
    expect(scheduling.status).toBe(201);
    const refused = await c.admin.post(`${B}/delete`, { id });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      { field: 'id', message: 'The robot has schedulings; delete them first' },
    ]);
    expect((await c.admin.post(`${B}/show`, { id })).status).toBe(200);

    const sid = scheduling.body.data.rota_schedulings_id;
    expect((await c.admin.post('/api/rota/scheduling/api/v1/delete', { id: sid })).status).toBe(
      202,
    );
    expect((await c.admin.post(`${B}/delete`, { id })).status).toBe(202);
    expect((await c.admin.post('/api/rota/scheduling/api/v1/show', { id: sid })).status).toBe(404);
  });

  it('accepts an index call without a body', async () => {
    const res = await c.admin.post(`${B}/index`);
    expect(res.status).toBe(200);
    expect(res.body.meta.current_page).toBe(1);
  });
});
