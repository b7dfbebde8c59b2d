import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

const B = '/api/rota/robot/field/api/v1';
let t: TestApp;
let c: Tenants;
let robot: number;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
  robot = await createRobot(c.admin, 'Field robot');
});
afterAll(() => t.close());

const field = (name: string, extra: object = {}) => ({
  rota_robots_id: robot,
  name,
  label: `Label of ${name}`,
  ...extra,
});

describe('robot fields', () => {
  it('round-trips create, show, update, list and delete with the generic answers', async () => {
    const created = await c.admin.post(
      `${B}/create`,
      field('invoice_number', { label: 'Invoice number', type: 'number', required: true }),
    );
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({
      rota_robots_id: robot,
      name: 'invoice_number',
      label: 'Invoice number',
      type: 'number',
      required: true,
    });
    const id = created.body.data.rota_robot_fields_id;

    const defaults = await c.admin.post(`${B}/create`, field('comment'));
    expect(defaults.body.data).toMatchObject({ type: 'text', required: false });

    const updated = await c.admin.put(`${B}/update`, { id, type: 'text', required: false });
    expect(updated.status).toBe(204);
    const after = await c.admin.post(`${B}/show`, { id });
    expect(after.body.data).toMatchObject({
      name: 'invoice_number',
      type: 'text',
      required: false,
    });

    const removed = await c.admin.post(`${B}/delete`, { id });
    expect(removed.status).toBe(202);
    expect(removed.body.message).toBe('Removed!');
    expect((await c.admin.post(`${B}/show`, { id })).status).toBe(404);
  });

  it('paginates, filters by robot, searches name and label, and sorts', async () => {
    const own = await createRobot(c.admin, 'Many fields robot');
    const other = await createRobot(c.admin, 'Few fields robot');
    for (let i = 1; i <= 12; i++) {
      await c.admin.post(`${B}/create`, {
        rota_robots_id: own,
        name: `f${String(i).padStart(2, '0')}`,
        label: i % 3 === 0 ? `Customer ${i}` : `Amount ${i}`,
        type: i % 2 ? 'number' : 'text',
      });
    }
    await c.admin.post(`${B}/create`, { rota_robots_id: other, name: 'f01', label: 'Customer' });
    const page = await c.admin.post(`${B}/index`, { rota_robots_id: own, page: 2, per_page: 5 });
    expect(page.body.meta).toEqual({ total: 12, current_page: 2, per_page: 5 });
    expect(page.body.data.map((f: { name: string }) => f.name)).toEqual([
      'f06',
      'f07',
      'f08',
      'f09',
      'f10',
    ]);
    const customers = await c.admin.post(`${B}/index`, {
      rota_robots_id: own,
      search: 'customer',
      sort: 'name',
      order: 'desc',
    });
    expect(customers.body.data.map((f: { name: string }) => f.name)).toEqual([
      'f12',
      'f09',
      'f06',
      'f03',
    ]);
    const byName = await c.admin.post(`${B}/index`, { search: 'F01' });
    expect(byName.body.meta.total).toBe(2);
  });

  it('says which fields are wrong, in the caller’s language', async () => {
    const en = await c.admin.post(`${B}/create`, { name: '', label: ' ', type: 'color' });
    expect(en.status).toBe(400);
    expect(en.body.errors).toEqual([
      { field: 'rota_robots_id', message: 'Required robot' },
      { field: 'name', message: 'Required name' },
      { field: 'label', message: 'Required label' },
      { field: 'type', message: 'Invalid value' },
    ]);
    const identifier = await c.admin.post(`${B}/create`, field('1st field', { required: 'yes' }));
    expect(identifier.body.errors).toEqual([
      { field: 'name', message: 'Use letters, digits and "_", starting with a letter' },
      { field: 'required', message: 'Invalid value' },
    ]);
    const pt = client(t.app, {
      token: await signIn(t.app, ADMIN.access, ADMIN.password),
      lang: 'pt',
    });
    const ptAnswer = await pt.post(`${B}/create`, field('x', { label: '' }));
    expect(ptAnswer.body.errors).toEqual([{ field: 'label', message: 'Rótulo obrigatório' }]);
    const tooLongPut = await c.admin.put(`${B}/update`, { id: 1, label: 'x'.repeat(121) });
    expect(tooLongPut.body.errors).toEqual([{ field: 'label', message: 'Too long' }]);
  });

  it('refuses a duplicate name on the same robot with 409, but not on another robot', async () => {
    expect((await c.admin.post(`${B}/create`, field('customer_id'))).status).toBe(201);
    const dup = await c.admin.post(`${B}/create`, field('Customer_ID'));
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      { field: 'name', message: 'This robot already has a field with this name' },
    ]);
    const second = await c.admin.post(`${B}/create`, field('customer_name'));
    const renamed = await c.admin.put(`${B}/update`, {
      id: second.body.data.rota_robot_fields_id,
      name: 'CUSTOMER_ID',
    });
    expect(renamed.status).toBe(409);
    const elsewhere = await createRobot(c.admin, 'Another field robot');
    expect(
      (await c.admin.post(`${B}/create`, { ...field('customer_id'), rota_robots_id: elsewhere }))
        .status,
    ).toBe(201);
  });

  it('needs ROBOS permissions: list alone can read but not write', async () => {
    expect((await c.limited.post(`${B}/index`, { rota_robots_id: robot })).status).toBe(200);
    expect((await c.limited.post(`${B}/create`, field('nope'))).status).toBe(403);
    const some = (await c.admin.post(`${B}/index`, { rota_robots_id: robot })).body.data[0];
    const id = some.rota_robot_fields_id;
    expect((await c.limited.put(`${B}/update`, { id, label: 'x' })).status).toBe(403);
    expect((await c.limited.post(`${B}/delete`, { id })).status).toBe(403);
  });

  it('answers 404 for another client’s robot or field on every call', async () => {
    const mine = (await c.admin.post(`${B}/create`, field('private_field'))).body.data
      .rota_robot_fields_id;
    expect((await c.other.post(`${B}/show`, { id: mine })).status).toBe(404);
    expect((await c.other.put(`${B}/update`, { id: mine, label: 'Stolen' })).status).toBe(404);
    expect((await c.other.post(`${B}/delete`, { id: mine })).status).toBe(404);
    expect((await c.other.post(`${B}/create`, field('intruder'))).status).toBe(404);
    const list = await c.other.post(`${B}/index`, { search: 'private_field' });
    expect(list.body.meta.total).toBe(0);
    expect((await c.other.post(`${B}/index`, { rota_robots_id: robot })).body.meta.total).toBe(0);
    expect((await c.admin.post(`${B}/show`, { id: mine })).body.data.label).toBe(
      'Label of private_field',
    );
  });
});
