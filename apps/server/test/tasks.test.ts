import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotaTasks } from '../src/db/schema/index.js';
import { localDay } from '../src/lib/date-range.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

const B = '/api/rota/task/api/v1';
const FIELDS = '/api/rota/robot/field/api/v1';
const FUTURE = '2099-12-31';
let t: TestApp;
let c: Tenants;
let robot: number;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['ATIVIDADES.LIST'] });
  robot = await createRobot(c.admin, 'Invoice robot');
  for (const [name, type, required] of [
    ['amount', 'number', true],
    ['customer', 'text', true],
    ['paid', 'boolean', false],
    ['due', 'date', false],
    ['extra', 'json', false],
  ] as const) {
    const res = await c.admin.post(`${FIELDS}/create`, {
      rota_robots_id: robot,
      name,
      label: name,
      type,
      required,
    });
    expect(res.status).toBe(201);
  }
});
afterAll(() => t.close());

const valid = { amount: 10.5, customer: 'ACME' };
const task = (extra: object = {}) => ({
  rota_robots_id: robot,
  label: 'Invoice 1',
  data: valid,
  expiration_date: FUTURE,
  ...extra,
});

async function createTask(extra: object = {}, who = c.admin) {
  const res = await who.post(`${B}/create`, task(extra));
  expect(res.status).toBe(201);
  return res.body.data.rota_tasks_id as number;
}

/** A local calendar day `offset` days from today, at `hour` (the server reads days in its TZ). */
function dayAt(offset: number, hour = 12, minute = 0, ms = 0) {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset, hour, minute, 0, ms);
}

describe('tasks', () => {
  it('round-trips create, show, update, list and delete with the generic answers', async () => {
    const data = { ...valid, paid: false, due: '2030-01-31', extra: { lines: [1, 2] } };
    const created = await c.admin.post(`${B}/create`, task({ data }));
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({
      rota_robots_id: robot,
      rota_robots_name: 'Invoice robot',
      label: 'Invoice 1',
      data,
      priority: 50,
      expiration_date: '2099-12-31T23:59:59.999Z',
      status: 'pending',
      business_error: null,
      attempts: 0,
    });
    const id = created.body.data.rota_tasks_id;

    const updated = await c.admin.put(`${B}/update`, {
      id,
      label: 'Invoice 1 (fixed)',
      data: { amount: 11, customer: 'ACME Ltd' },
      priority: 90,
      expiration_date: '2098-06-30T08:00:00-03:00',
      status: 'success',
    });
    expect(updated.status).toBe(204);
    const shown = await c.admin.post(`${B}/show`, { id });
    expect(shown.body.data).toMatchObject({
      label: 'Invoice 1 (fixed)',
      data: { amount: 11, customer: 'ACME Ltd' },
      priority: 90,
      expiration_date: '2098-06-30T11:00:00.000Z',
      status: 'pending',
    });

    const removed = await c.admin.post(`${B}/delete`, { id });
    expect(removed.status).toBe(202);
    expect(removed.body.message).toBe('Removed!');
    expect((await c.admin.post(`${B}/show`, { id })).status).toBe(404);
  });

  it('checks data against the robot’s fields, naming each as data.<name>', async () => {
    const wrong = await c.admin.post(
      `${B}/create`,
      task({ data: { amount: '10', customer: 5, paid: 'yes', due: '31/01/2030', color: 'red' } }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([
      { field: 'data.amount', message: 'Must be a number' },
      { field: 'data.customer', message: 'Must be text' },
      { field: 'data.paid', message: 'Must be true or false' },
      { field: 'data.due', message: 'Must be a date (YYYY-MM-DD)' },
      { field: 'data.color', message: 'This robot has no such field' },
    ]);
    const missing = await c.admin.post(`${B}/create`, task({ data: { customer: '  ' } }));
    expect(missing.body.errors).toEqual([
      { field: 'data.amount', message: 'Required field' },
      { field: 'data.customer', message: 'Required field' },
    ]);
    const notObject = await c.admin.post(`${B}/create`, task({ data: 'amount=1' }));
    expect(notObject.body.errors).toEqual([{ field: 'data', message: 'Must be JSON' }]);
    for (const due of ['2030-02-30', '2030-01-31 10:00', 'tomorrow']) {
      const res = await c.admin.post(`${B}/create`, task({ data: { ...valid, due } }));
      expect(res.body.errors).toEqual([
        { field: 'data.due', message: 'Must be a date (YYYY-MM-DD)' },
      ]);
    }
    for (const value of [1, 'true', null]) {
      const res = await c.admin.post(`${B}/create`, task({ data: { ...valid, paid: value } }));
      expect(res.status).toBe(value === null ? 201 : 400);
    }
    const accepted = [
      { due: '2030-01-31T10:00:00Z' },
      { due: '2030-01-31T10:00:00.250-03:00' },
      { amount: 0, extra: [1, 'two', null] },
      { amount: -1.5, extra: 'plain text' },
      { extra: { nested: { deep: true } } },
    ];
    for (const data of accepted) {
      const res = await c.admin.post(`${B}/create`, task({ data: { ...valid, ...data } }));
      expect({ data, status: res.status }).toEqual({ data, status: 201 });
    }
    const pt = client(t.app, {
      token: await signIn(t.app, ADMIN.access, ADMIN.password),
      lang: 'pt',
    });
    const ptAnswer = await pt.post(`${B}/create`, task({ data: { amount: 1 } }));
    expect(ptAnswer.body.errors).toEqual([
      { field: 'data.customer', message: 'Campo obrigatório' },
    ]);

    const id = await createTask();
    const badUpdate = await c.admin.put(`${B}/update`, {
      id,
      data: { amount: 'x', customer: 'A' },
    });
    expect(badUpdate.status).toBe(400);
    expect(badUpdate.body.errors).toEqual([{ field: 'data.amount', message: 'Must be a number' }]);
    expect((await c.admin.post(`${B}/show`, { id })).body.data.data).toEqual(valid);
  });

  it('takes any JSON object for a robot without fields; its first field brings the strict check', async () => {
    const free = await createRobot(c.admin, 'Schemaless robot');
    const data = {
      anything: 1,
      'Nota fiscal nº': 'x',
      nested: { lines: [1, 'two', null, { deep: [true] }] },
      empty: null,
    };
    const created = await c.admin.post(`${B}/create`, task({ rota_robots_id: free, data }));
    expect(created.status).toBe(201);
    expect(created.body.data.data).toEqual(data);
    const id = created.body.data.rota_tasks_id as number;
    const changed = await c.admin.put(`${B}/update`, { id, data: { other: [1, 2] } });
    expect(changed.status).toBe(204);
    expect((await c.admin.post(`${B}/show`, { id })).body.data.data).toEqual({ other: [1, 2] });
    // Still an object, still within the request's bounds.
    for (const notObject of ['amount=1', [1, 2], 3]) {
      const res = await c.admin.post(
        `${B}/create`,
        task({ rota_robots_id: free, data: notObject }),
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'data', message: 'Must be JSON' }]);
    }
    const huge = await c.admin.post(
      `${B}/create`,
      task({ rota_robots_id: free, data: { blob: 'x'.repeat(1024 * 1024) } }),
    );
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('body_too_large');
    const nested = (levels: number): unknown => (levels === 0 ? 1 : { in: nested(levels - 1) });
    const deep = await c.admin.post(
      `${B}/create`,
      task({ rota_robots_id: free, data: { deep: nested(70) } }),
    );
    expect(deep.status).toBe(400);
    expect(deep.body.code).toBe('json_too_deep');
    expect(
      (
        await c.admin.post(
          `${B}/create`,
          task({ rota_robots_id: free, data: { deep: nested(50) } }),
        )
      ).status,
    ).toBe(201);

    const field = await c.admin.post(`${FIELDS}/create`, {
      rota_robots_id: free,
      name: 'amount',
      label: 'Amount',
      type: 'number',
      required: false,
    });
    expect(field.status).toBe(201);
    const strict = await c.admin.post(
      `${B}/create`,
      task({ rota_robots_id: free, data: { amount: 1, anything: 1 } }),
    );
    expect(strict.status).toBe(400);
    expect(strict.body.errors).toEqual([
      { field: 'data.anything', message: 'This robot has no such field' },
    ]);
    const pt = client(t.app, {
      token: await signIn(t.app, ADMIN.access, ADMIN.password),
      lang: 'pt',
    });
    const ptStrict = await pt.post(`${B}/create`, task({ rota_robots_id: free, data: data }));
    expect(ptStrict.status).toBe(400);
    expect(ptStrict.body.errors).toContainEqual({
      field: 'data.anything',
      message: 'Este robô não tem esse campo',
    });
    expect(
      (await c.admin.post(`${B}/create`, task({ rota_robots_id: free, data: { amount: 2 } })))
        .status,
    ).toBe(201);
    // Tasks written before keep their data; without fields again, any object goes again.
    expect((await c.admin.post(`${B}/show`, { id })).body.data.data).toEqual({ other: [1, 2] });
    const removed = await c.admin.post(`${FIELDS}/delete`, {
      id: field.body.data.rota_robot_fields_id,
    });
    expect(removed.status).toBe(202);
    expect(
      (await c.admin.post(`${B}/create`, task({ rota_robots_id: free, data: { anything: 1 } })))
        .status,
    ).toBe(201);
  });

  it('validates the robot, priority and expiration date', async () => {
    const en = await c.admin.post(`${B}/create`, { data: {}, priority: 0 });
    expect(en.status).toBe(400);
    expect(en.body.errors).toEqual([
      { field: 'rota_robots_id', message: 'Required robot' },
      { field: 'priority', message: 'Between 1 and 100' },
      { field: 'expiration_date', message: 'Required expiration date' },
    ]);
    const high = await c.admin.post(`${B}/create`, task({ priority: 101 }));
    expect(high.body.errors).toEqual([{ field: 'priority', message: 'Between 1 and 100' }]);
    const text = await c.admin.post(`${B}/create`, task({ priority: 'high' }));
    expect(text.body.errors).toEqual([{ field: 'priority', message: 'Must be a number' }]);
    for (const expiration_date of ['next week', '2030-02-30', '2030']) {
      const res = await c.admin.post(`${B}/create`, task({ expiration_date }));
      expect(res.body.errors).toEqual([{ field: 'expiration_date', message: 'Invalid data' }]);
    }
    const past = await c.admin.post(`${B}/create`, task({ expiration_date: '2000-01-01' }));
    expect(past.body.errors).toEqual([
      { field: 'expiration_date', message: 'The expiration date must be in the future' },
    ]);
    const pastAndWrong = await c.admin.post(
      `${B}/create`,
      task({ expiration_date: localDay(dayAt(-1)), data: { amount: 1 } }),
    );
    expect(pastAndWrong.body.errors).toEqual([
      { field: 'data.customer', message: 'Required field' },
      { field: 'expiration_date', message: 'The expiration date must be in the future' },
    ]);

    // An expired task keeps its date through an edit of something else, but cannot be moved
    // to another past date.
    const id = await createTask();
    await t.db
      .update(rotaTasks)
      .set({ expiration_date: new Date('2001-05-05T00:00:00Z'), status: 'expired' })
      .where(eq(rotaTasks.rota_tasks_id, id));
    const kept = await c.admin.put(`${B}/update`, {
      id,
      label: 'Relabelled',
      expiration_date: '2001-05-05T00:00:00Z',
    });
    expect(kept.status).toBe(204);
    const moved = await c.admin.put(`${B}/update`, { id, expiration_date: '2001-05-06' });
    expect(moved.body.errors).toEqual([
      { field: 'expiration_date', message: 'The expiration date must be in the future' },
    ]);
  });

  it('paginates, filters by robot, status and search, and sorts', async () => {
    const listed = await createRobot(c.admin, 'Listed robot');
    for (let i = 1; i <= 7; i++) {
      await createTask({ rota_robots_id: listed, data: {}, label: `Batch ${i}`, priority: i * 10 });
    }
    const page = await c.admin.post(`${B}/index`, {
      rota_robots_id: listed,
      sort: 'priority',
      order: 'desc',
      page: 2,
      per_page: 3,
    });
    expect(page.body.meta).toEqual({ total: 7, current_page: 2, per_page: 3 });
    expect(page.body.data.map((x: { label: string }) => x.label)).toEqual([
      'Batch 4',
      'Batch 3',
      'Batch 2',
    ]);
    expect(page.body.data[0].rota_robots_name).toBe('Listed robot');
    const newest = await c.admin.post(`${B}/index`, { rota_robots_id: listed, per_page: 2 });
    expect(newest.body.data.map((x: { label: string }) => x.label)).toEqual(['Batch 7', 'Batch 6']);
    const searched = await c.admin.post(`${B}/index`, { search: 'batch 5' });
    expect(searched.body.meta.total).toBe(1);
    const ids = page.body.data.map((x: { rota_tasks_id: number }) => x.rota_tasks_id);
    await t.db
      .update(rotaTasks)
      .set({ status: 'success' })
      .where(inArray(rotaTasks.rota_tasks_id, ids));
    const done = await c.admin.post(`${B}/index`, { rota_robots_id: listed, status: 'success' });
    expect(done.body.meta.total).toBe(3);
    const badStatus = await c.admin.post(`${B}/index`, { status: 'done' });
    expect(badStatus.body.errors).toEqual([{ field: 'status', message: 'Invalid value' }]);
  });

  it('filters by inclusive creation days and checks the range', async () => {
    const dated = await createRobot(c.admin, 'Dated robot');
    const stamps = {
      tooOld: dayAt(-6, 23, 59, 999),
      firstDay: dayAt(-5, 0),
      middle: dayAt(-3),
      lastDay: dayAt(-2, 23, 59, 999),
      tooNew: dayAt(-1, 0),
    };
    for (const [label, created_at] of Object.entries(stamps)) {
      const id = await createTask({ rota_robots_id: dated, data: {}, label });
      await t.db.update(rotaTasks).set({ created_at }).where(eq(rotaTasks.rota_tasks_id, id));
    }
    const range = await c.admin.post(`${B}/index`, {
      rota_robots_id: dated,
      startDate: localDay(dayAt(-5)),
      endDate: localDay(dayAt(-2)),
    });
    expect(range.status).toBe(200);
    expect(range.body.data.map((x: { label: string }) => x.label)).toEqual([
      'lastDay',
      'middle',
      'firstDay',
    ]);
    const fromOnly = await c.admin.post(`${B}/index`, {
      rota_robots_id: dated,
      startDate: localDay(dayAt(-1)),
    });
    expect(fromOnly.body.data.map((x: { label: string }) => x.label)).toEqual(['tooNew']);
    const today = await c.admin.post(`${B}/index`, { endDate: localDay(dayAt(0)) });
    expect(today.status).toBe(200);

    const reversed = await c.admin.post(`${B}/index`, {
      startDate: localDay(dayAt(-2)),
      endDate: localDay(dayAt(-5)),
    });
    expect(reversed.status).toBe(400);
    expect(reversed.body.errors).toEqual([
      { field: 'endDate', message: 'The end date cannot be before the start date' },
    ]);
    const future = await c.admin.post(`${B}/index`, { endDate: localDay(dayAt(1)) });
    expect(future.body.errors).toEqual([{ field: 'endDate', message: 'Max data' }]);
    const malformed = await c.admin.post(`${B}/index`, {
      startDate: '2024-02-30',
      endDate: '2024-13-01',
    });
    expect(malformed.body.errors).toEqual([
      { field: 'startDate', message: 'Invalid data' },
      { field: 'endDate', message: 'Invalid data' },
    ]);
  });

  it('retries the scope’s tasks that are not processing, and clears their business error', async () => {
    const statuses = [
      'business_error',
      'application_error',
      'processing',
      'success',
      'expired',
      'pending',
    ] as const;
    const ids: number[] = [];
    for (const status of statuses) {
      const id = await createTask({ label: `retry ${status}` });
      await t.db
        .update(rotaTasks)
        .set({
          status,
          business_error: status === 'business_error' ? 'Invoice closed' : null,
          attempts: 2,
        })
        .where(eq(rotaTasks.rota_tasks_id, id));
      ids.push(id);
    }
    const theirRobot = await createRobot(c.other, 'Their retry robot');
    const theirs = await createTask({ rota_robots_id: theirRobot, data: {} }, c.other);
    await t.db
      .update(rotaTasks)
      .set({ status: 'application_error' })
      .where(eq(rotaTasks.rota_tasks_id, theirs));

    const retried = await c.admin.post(`${B}/retry`, { ids: [...ids, theirs, 999999] });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ message: 'Tasks queued again', data: { count: 4 } });
    const after = await t.db
      .select({
        id: rotaTasks.rota_tasks_id,
        status: rotaTasks.status,
        error: rotaTasks.business_error,
      })
      .from(rotaTasks)
      .where(inArray(rotaTasks.rota_tasks_id, [...ids, theirs]))
      .orderBy(rotaTasks.rota_tasks_id);
    expect(after.map((r) => [r.status, r.error])).toEqual([
      ['pending', null],
      ['pending', null],
      ['processing', null],
      ['pending', null],
      ['pending', null],
      ['pending', null],
      ['application_error', null],
    ]);
    const empty = await c.admin.post(`${B}/retry`, { ids: [] });
    expect(empty.body.errors).toEqual([{ field: 'ids', message: 'Invalid value' }]);
  });

  it('deletes many of the scope’s tasks and leaves other clients’ alone', async () => {
    const mine = [await createTask({ label: 'bulk 1' }), await createTask({ label: 'bulk 2' })];
    const theirRobot = await createRobot(c.other, 'Their bulk robot');
    const theirs = await createTask({ rota_robots_id: theirRobot, data: {} }, c.other);
    const removed = await c.admin.post(`${B}/delete_many`, { ids: [...mine, theirs] });
    expect(removed.status).toBe(202);
    expect(removed.body).toEqual({ message: 'Tasks removed', data: { count: 2 } });
    for (const id of mine) expect((await c.admin.post(`${B}/show`, { id })).status).toBe(404);
    expect((await c.other.post(`${B}/show`, { id: theirs })).status).toBe(200);
  });

  it('needs ATIVIDADES permissions: list alone can read but not write', async () => {
    const id = await createTask();
    expect((await c.limited.post(`${B}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${B}/show`, { id })).status).toBe(200);
    expect((await c.limited.post(`${B}/create`, task())).status).toBe(403);
    expect((await c.limited.put(`${B}/update`, { id, label: 'x' })).status).toBe(403);
    expect((await c.limited.post(`${B}/delete`, { id })).status).toBe(403);
    expect((await c.limited.post(`${B}/retry`, { ids: [id] })).status).toBe(403);
    expect((await c.limited.post(`${B}/delete_many`, { ids: [id] })).status).toBe(403);
  });

  it('answers 404 for another client’s task or robot on every call', async () => {
    const id = await createTask({ label: 'Private task' });
    expect((await c.other.post(`${B}/show`, { id })).status).toBe(404);
    expect((await c.other.put(`${B}/update`, { id, label: 'Stolen' })).status).toBe(404);
    expect((await c.other.post(`${B}/delete`, { id })).status).toBe(404);
    expect((await c.other.post(`${B}/create`, task())).status).toBe(404);
    const list = await c.other.post(`${B}/index`, { search: 'Private task' });
    expect(list.body.meta.total).toBe(0);
    expect((await c.admin.post(`${B}/show`, { id })).body.data.label).toBe('Private task');
  });
});
