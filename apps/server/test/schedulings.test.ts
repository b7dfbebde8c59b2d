import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRobot } from './helpers/robots.js';
import { createVm } from './helpers/vms.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

const B = '/api/rota/scheduling/api/v1';
const SVMS = '/api/rota/scheduling/vms/api/v1';
const VMS = '/api/rota/vm/api/v1';
let t: TestApp;
let c: Tenants;
let robot: number;
let otherRobot: number;
let foreignRobot: number;
let vm1: number;
let vm2: number;
let vm3: number;
let foreignVm: number;

type Caller = Tenants['admin'];

const scheduling = (name: string, extra: object = {}) => ({
  name,
  rota_robots_id: robot,
  interval_minutes: 15,
  timeout_minutes: 10,
  ...extra,
});

async function createScheduling(as: Caller, body: object): Promise<number> {
  const res = await as.post(`${B}/create`, body);
  expect(res.status).toBe(201);
  return res.body.data.rota_schedulings_id;
}

const vmIds = (s: { vms: { rota_vms_id: number }[] }) => s.vms.map((v) => v.rota_vms_id);
const show = async (id: number) => (await c.admin.post(`${B}/show`, { id })).body.data;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['AGENDAMENTOS.LIST'] });
  robot = await createRobot(c.admin, 'Invoices');
  otherRobot = await createRobot(c.admin, 'Payroll');
  foreignRobot = await createRobot(c.other, 'Foreign robot');
  vm1 = await createVm(c.admin, 'Alpha');
  vm2 = await createVm(c.admin, 'Bravo');
  vm3 = await createVm(c.admin, 'Charlie');
  foreignVm = await createVm(c.other, 'Foreign VM');
});
afterAll(() => t.close());

describe('schedulings', () => {
  it('round-trips create, show, update, list and delete with the generic answers', async () => {
    const created = await c.admin.post(
      `${B}/create`,
      scheduling('Nightly invoices', { vms: [vm2, vm1] }),
    );
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({
      name: 'Nightly invoices',
      rota_robots_id: robot,
      rota_robots_name: 'Invoices',
      interval_minutes: 15,
      timeout_minutes: 10,
      retries: 0,
      priority: 50,
      sleep: 0,
      active: true,
      deleted_at: null,
      vms: [
        { rota_vms_id: vm1, name: 'Alpha' },
        { rota_vms_id: vm2, name: 'Bravo' },
      ],
    });
    const id = created.body.data.rota_schedulings_id;
    expect((await c.admin.post(`${B}/show`, { id })).body.data).toEqual(created.body.data);

    const updated = await c.admin.put(`${B}/update`, {
      id,
      rota_robots_id: otherRobot,
      retries: 3,
      priority: 90,
      sleep: 60,
      active: false,
    });
    expect(updated.status).toBe(204);
    expect(await show(id)).toMatchObject({
      name: 'Nightly invoices',
      rota_robots_name: 'Payroll',
      retries: 3,
      priority: 90,
      sleep: 60,
      active: false,
      vms: [{ name: 'Alpha' }, { name: 'Bravo' }],
    });

    const listed = await c.admin.post(`${B}/index`, { search: 'nightly invoices' });
    expect(
      listed.body.data.map((s: { rota_schedulings_id: number }) => s.rota_schedulings_id),
    ).toEqual([id]);
    expect(vmIds(listed.body.data[0])).toEqual([vm1, vm2]);
    // Its robot's name finds it too; another client's robot of the same name does not count.
    const byRobot = await c.admin.post(`${B}/index`, { search: 'payrol' });
    expect(
      byRobot.body.data.map((s: { rota_schedulings_id: number }) => s.rota_schedulings_id),
    ).toContain(id);
    expect(
      byRobot.body.data.every(
        (s: { rota_robots_name: string }) => s.rota_robots_name === 'Payroll',
      ),
    ).toBe(true);
    expect((await c.other.post(`${B}/index`, { search: 'payrol' })).body.meta.total).toBe(0);

    const removed = await c.admin.post(`${B}/delete`, { id });
    expect(removed.status).toBe(202);
    expect(removed.body.message).toBe('Removed!');
  });

  it('sets, replaces and clears the VMs in the same write', async () => {
    const id = await createScheduling(c.admin, scheduling('VM juggling', { vms: [vm1, vm1, vm2] }));
    expect(vmIds(await show(id))).toEqual([vm1, vm2]);

    expect((await c.admin.put(`${B}/update`, { id, vms: [vm3, vm2] })).status).toBe(204);
    expect(vmIds(await show(id))).toEqual([vm2, vm3]);

    // Not sending vms keeps them.
    expect((await c.admin.put(`${B}/update`, { id, priority: 10 })).status).toBe(204);
    expect(vmIds(await show(id))).toEqual([vm2, vm3]);

    // A refused write changes nothing: neither the fields nor the set.
    const refused = await c.admin.put(`${B}/update`, { id, priority: 20, vms: [vm1, foreignVm] });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: 'vms', message: 'This VM does not exist' }]);
    expect(await show(id)).toMatchObject({
      priority: 10,
      vms: [{ name: 'Bravo' }, { name: 'Charlie' }],
    });

    expect((await c.admin.put(`${B}/update`, { id, vms: [] })).status).toBe(204);
    expect((await show(id)).vms).toEqual([]);
  });

  it('lists each row with its own VMs by name, read in the page’s statement', async () => {
    const none = await createScheduling(c.admin, scheduling('Listed VMs none'));
    const two = await createScheduling(c.admin, scheduling('Listed VMs two', { vms: [vm3, vm1] }));
    const one = await createScheduling(c.admin, scheduling('Listed VMs one', { vms: [vm2] }));
    const mine = await c.admin.post(`${B}/index`, { search: 'Listed VMs', sort: 'name' });
    expect(mine.body.data.map((s: { name: string; vms: unknown }) => [s.name, s.vms])).toEqual([
      ['Listed VMs none', []],
      ['Listed VMs one', [{ rota_vms_id: vm2, name: 'Bravo' }]],
      [
        'Listed VMs two',
        [
          { rota_vms_id: vm1, name: 'Alpha' },
          { rota_vms_id: vm3, name: 'Charlie' },
        ],
      ],
    ]);
    // A renamed VM is listed by its new name; the order follows the names.
    expect((await c.admin.put(`${VMS}/update`, { id: vm1, name: 'Zulu' })).status).toBe(204);
    const renamed = await c.admin.post(`${B}/index`, { search: 'Listed VMs two' });
    expect(renamed.body.data[0].vms).toEqual([
      { rota_vms_id: vm3, name: 'Charlie' },
      { rota_vms_id: vm1, name: 'Zulu' },
    ]);
    expect((await show(two)).vms).toEqual(renamed.body.data[0].vms);
    expect((await c.admin.put(`${VMS}/update`, { id: vm1, name: 'Alpha' })).status).toBe(204);
    for (const id of [none, two, one]) {
      expect((await c.admin.post(`${B}/delete`, { id })).status).toBe(202);
    }
  });

  it('checks the bounds of every number', async () => {
    const cases: [string, unknown, string][] = [
      ['interval_minutes', 0, 'Between 1 and 525600'],
      ['interval_minutes', 525601, 'Between 1 and 525600'],
      ['interval_minutes', 1.5, 'Must be a whole number'],
      ['interval_minutes', '15', 'Required interval'],
      ['timeout_minutes', 0, 'Between 1 and 1440'],
      ['timeout_minutes', 1441, 'Between 1 and 1440'],
      ['timeout_minutes', 2.5, 'Must be a whole number'],
      ['retries', -1, 'Between 0 and 10'],
      ['retries', 11, 'Between 0 and 10'],
      ['retries', 0.5, 'Must be a whole number'],
      ['priority', 0, 'Between 1 and 100'],
      ['priority', 101, 'Between 1 and 100'],
      ['priority', 1.5, 'Must be a whole number'],
      ['sleep', -1, 'Between 0 and 86400'],
      ['sleep', 86401, 'Between 0 and 86400'],
      ['sleep', 0.5, 'Must be a whole number'],
    ];
    for (const [field, value, message] of cases) {
      const res = await c.admin.post(
        `${B}/create`,
        scheduling(`Bounds ${field}`, { [field]: value }),
      );
      expect(res.status, `${field}=${String(value)}`).toBe(400);
      expect(res.body.errors, `${field}=${String(value)}`).toEqual([{ field, message }]);
    }
    const lowest = await c.admin.post(
      `${B}/create`,
      scheduling('Lowest', {
        interval_minutes: 1,
        timeout_minutes: 1,
        retries: 0,
        priority: 1,
        sleep: 0,
      }),
    );
    expect(lowest.status).toBe(201);
    const highest = await c.admin.post(
      `${B}/create`,
      scheduling('Highest', {
        interval_minutes: 525600,
        timeout_minutes: 1440,
        retries: 10,
        priority: 100,
        sleep: 86400,
      }),
    );
    expect(highest.status).toBe(201);
    const id = highest.body.data.rota_schedulings_id;
    const tooHigh = await c.admin.put(`${B}/update`, { id, priority: 101 });
    expect(tooHigh.body.errors).toEqual([{ field: 'priority', message: 'Between 1 and 100' }]);
    expect((await show(id)).priority).toBe(100);
    expect((await c.admin.post(`${B}/index`, { search: 'Bounds' })).body.meta.total).toBe(0);
  });

  it('says which fields are wrong, in the caller’s language', async () => {
    const en = await c.admin.post(`${B}/create`, {});
    expect(en.status).toBe(400);
    expect(en.body.errors).toEqual([
      { field: 'name', message: 'Required name' },
      { field: 'rota_robots_id', message: 'Required robot' },
      { field: 'timeout_minutes', message: 'Required timeout' },
      // An interval is required of the `interval` trigger (the default) only: checked last.
      { field: 'interval_minutes', message: 'Required interval' },
    ]);
    const shapes = await c.admin.post(
      `${B}/create`,
      scheduling('x'.repeat(121), { active: 'yes', vms: 'all' }),
    );
    expect(shapes.body.errors).toEqual([
      { field: 'name', message: 'Too long' },
      { field: 'active', message: 'Invalid value' },
      { field: 'vms', message: 'Invalid value' },
    ]);
    const badVm = await c.admin.post(`${B}/create`, scheduling('Bad VM id', { vms: [vm1, -4] }));
    expect(badVm.body.errors).toEqual([{ field: 'vms.1', message: 'Invalid value' }]);
    const filter = await c.admin.post(`${B}/index`, { deleted: 'some' });
    expect(filter.body.errors).toEqual([{ field: 'deleted', message: 'Invalid value' }]);

    const pt = client(t.app, {
      token: await signIn(t.app, ADMIN.access, ADMIN.password),
      lang: 'pt',
    });
    const inPt = await pt.post(`${B}/create`, { name: 'Só nome' });
    expect(inPt.body.errors).toEqual([
      { field: 'rota_robots_id', message: 'Robô obrigatório' },
      { field: 'timeout_minutes', message: 'Tempo limite obrigatório' },
      { field: 'interval_minutes', message: 'Intervalo obrigatório' },
    ]);
    const range = await pt.post(`${B}/create`, scheduling('Fora', { retries: 11 }));
    expect(range.body.errors).toEqual([{ field: 'retries', message: 'Entre 0 e 10' }]);
  });

  it('refuses another client’s robot or VM as if it did not exist, and writes nothing', async () => {
    const robotRefused = await c.admin.post(
      `${B}/create`,
      scheduling('Borrowed robot', { rota_robots_id: foreignRobot }),
    );
    expect(robotRefused.status).toBe(400);
    expect(robotRefused.body.errors).toEqual([
      { field: 'rota_robots_id', message: 'This robot does not exist' },
    ]);
    const vmRefused = await c.admin.post(
      `${B}/create`,
      scheduling('Borrowed VM', { vms: [vm1, foreignVm] }),
    );
    expect(vmRefused.status).toBe(400);
    expect(vmRefused.body.errors).toEqual([{ field: 'vms', message: 'This VM does not exist' }]);
    const missing = await c.admin.post(`${B}/create`, scheduling('Ghost VM', { vms: [999999] }));
    expect(missing.body.errors).toEqual([{ field: 'vms', message: 'This VM does not exist' }]);
    const all = await c.admin.post(`${B}/index`, { search: 'Borrowed', deleted: 'all' });
    expect(all.body.meta.total).toBe(0);

    const id = await createScheduling(c.admin, scheduling('Own robot'));
    const swap = await c.admin.put(`${B}/update`, { id, rota_robots_id: foreignRobot });
    expect(swap.status).toBe(400);
    expect(swap.body.errors).toEqual([
      { field: 'rota_robots_id', message: 'This robot does not exist' },
    ]);
    expect((await show(id)).rota_robots_id).toBe(robot);
  });

  it('refuses a duplicate live name with 409, but not in another client', async () => {
    const first = await createScheduling(c.admin, scheduling('Unique run'));
    const dup = await c.admin.post(`${B}/create`, scheduling('UNIQUE RUN'));
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      { field: 'name', message: 'A scheduling with this name already exists' },
    ]);
    const second = await createScheduling(c.admin, scheduling('Other run'));
    expect((await c.admin.put(`${B}/update`, { id: second, name: 'unique run' })).status).toBe(409);
    expect((await show(first)).name).toBe('Unique run');
    expect(
      (
        await c.other.post(
          `${B}/create`,
          scheduling('Unique run', { rota_robots_id: foreignRobot }),
        )
      ).status,
    ).toBe(201);
  });

  it('deletes softly: found under deleted, read-only, and restored on demand', async () => {
    const id = await createScheduling(c.admin, scheduling('Phoenix', { vms: [vm1] }));
    expect((await c.admin.post(`${B}/delete`, { id })).status).toBe(202);

    const names = async (deleted?: string) =>
      (
        await c.admin.post(`${B}/index`, { search: 'Phoenix', ...(deleted ? { deleted } : {}) })
      ).body.data.map((s: { name: string; deleted_at: string | null }) => [
        s.name,
        s.deleted_at !== null,
      ]);
    expect(await names()).toEqual([]);
    expect(await names('not_deleted')).toEqual([]);
    expect(await names('deleted')).toEqual([['Phoenix', true]]);

    const shown = await show(id);
    expect(shown.deleted_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(vmIds(shown)).toEqual([vm1]);
    expect((await c.admin.put(`${B}/update`, { id, priority: 1 })).status).toBe(404);
    expect((await c.admin.post(`${B}/delete`, { id })).status).toBe(404);

    // Its name is free again while it is deleted...
    const heir = await createScheduling(c.admin, scheduling('PHOENIX'));
    expect(await names('all')).toEqual([
      ['PHOENIX', false],
      ['Phoenix', true],
    ]);
    // ...so it cannot come back under it.
    const clash = await c.admin.post(`${B}/restore`, { id });
    expect(clash.status).toBe(409);
    expect(clash.body.errors).toEqual([
      { field: 'name', message: 'A scheduling with this name already exists' },
    ]);
    expect((await show(id)).deleted_at).not.toBeNull();

    expect((await c.admin.post(`${B}/delete`, { id: heir })).status).toBe(202);
    const restored = await c.admin.post(`${B}/restore`, { id });
    expect(restored.status).toBe(200);
    expect(restored.body.message).toBe('Restored!');
    expect(await names()).toEqual([['Phoenix', false]]);
    expect(await show(id)).toMatchObject({ deleted_at: null, vms: [{ rota_vms_id: vm1 }] });
    // Restoring a live one changes nothing.
    expect((await c.admin.post(`${B}/restore`, { id })).status).toBe(200);
    expect((await c.admin.post(`${B}/restore`, { id: 999999 })).status).toBe(404);
  });

  it('paginates, filters and sorts', async () => {
    for (let i = 1; i <= 12; i++) {
      await createScheduling(
        c.admin,
        scheduling(`Page ${String(i).padStart(2, '0')}`, {
          priority: i,
          rota_robots_id: i % 2 ? robot : otherRobot,
          active: i <= 6,
        }),
      );
    }
    const page = await c.admin.post(`${B}/index`, { search: 'page', page: 3, per_page: 5 });
    expect(page.body.meta).toEqual({ total: 12, current_page: 3, per_page: 5 });
    expect(page.body.data.map((s: { name: string }) => s.name)).toEqual(['Page 11', 'Page 12']);
    const byPriority = await c.admin.post(`${B}/index`, {
      search: 'page',
      sort: 'priority',
      order: 'desc',
      per_page: 2,
    });
    expect(byPriority.body.data.map((s: { name: string }) => s.name)).toEqual([
      'Page 12',
      'Page 11',
    ]);
    const filtered = await c.admin.post(`${B}/index`, {
      search: 'page',
      rota_robots_id: otherRobot,
      active: true,
    });
    expect(filtered.body.data.map((s: { name: string }) => s.name)).toEqual([
      'Page 02',
      'Page 04',
      'Page 06',
    ]);
    // The search also reads the robot's name.
    const byRobot = await c.admin.post(`${B}/index`, { search: 'payroll', per_page: 100 });
    expect(
      byRobot.body.data.every(
        (s: { rota_robots_name: string }) => s.rota_robots_name === 'Payroll',
      ),
    ).toBe(true);
    expect(byRobot.body.meta.total).toBeGreaterThanOrEqual(6);
  });

  it('needs AGENDAMENTOS permissions: list alone can read but not write', async () => {
    const id = await createScheduling(c.admin, scheduling('Guarded', { vms: [vm1] }));
    expect((await c.limited.post(`${B}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${B}/show`, { id })).status).toBe(200);
    expect((await c.limited.post(`${SVMS}/index`, { rota_schedulings_id: id })).status).toBe(200);
    expect((await c.limited.post(`${B}/create`, scheduling('Nope'))).status).toBe(403);
    expect((await c.limited.put(`${B}/update`, { id, priority: 1 })).status).toBe(403);
    expect((await c.limited.post(`${B}/delete`, { id })).status).toBe(403);
    expect((await c.limited.post(`${B}/restore`, { id })).status).toBe(403);
    expect(
      (await c.limited.post(`${SVMS}/create`, { rota_schedulings_id: id, rota_vms_id: vm2 }))
        .status,
    ).toBe(403);
    const link = (await c.admin.post(`${SVMS}/index`, { rota_schedulings_id: id })).body.data[0];
    expect(
      (await c.limited.post(`${SVMS}/delete`, { id: link.rota_scheduling_vms_id })).status,
    ).toBe(403);

    const none = await setUpTenants(t, { permissions: ['AGENTES.LIST'] });
    expect((await none.limited.post(`${B}/index`, {})).status).toBe(403);
    expect((await none.limited.post(`${SVMS}/index`, { rota_schedulings_id: id })).status).toBe(
      403,
    );
  });

  it('answers 404 for another client’s scheduling on every call and keeps it out of its list', async () => {
    const mine = await createScheduling(c.admin, scheduling('Private run', { vms: [vm1] }));
    expect((await c.other.post(`${B}/show`, { id: mine })).status).toBe(404);
    expect((await c.other.put(`${B}/update`, { id: mine, name: 'Stolen' })).status).toBe(404);
    expect((await c.other.post(`${B}/delete`, { id: mine })).status).toBe(404);
    expect((await c.other.post(`${B}/restore`, { id: mine })).status).toBe(404);
    const list = await c.other.post(`${B}/index`, { search: 'Private run', deleted: 'all' });
    expect(list.body.meta.total).toBe(0);
    expect((await c.other.post(`${SVMS}/index`, { rota_schedulings_id: mine })).status).toBe(404);
    expect(
      (await c.other.post(`${SVMS}/create`, { rota_schedulings_id: mine, rota_vms_id: foreignVm }))
        .status,
    ).toBe(404);
    const link = (await c.admin.post(`${SVMS}/index`, { rota_schedulings_id: mine })).body.data[0];
    expect((await c.other.post(`${SVMS}/delete`, { id: link.rota_scheduling_vms_id })).status).toBe(
      404,
    );
    expect(await show(mine)).toMatchObject({
      name: 'Private run',
      deleted_at: null,
      vms: [{ rota_vms_id: vm1 }],
    });
  });
});

describe('scheduling VMs', () => {
  it('lists, adds and removes the VMs of one scheduling', async () => {
    const id = await createScheduling(c.admin, scheduling('One by one', { vms: [vm2] }));
    const added = await c.admin.post(`${SVMS}/create`, {
      rota_schedulings_id: id,
      rota_vms_id: vm1,
    });
    expect(added.status).toBe(201);
    expect(added.body.message).toBe('Created!');
    expect(added.body.data).toMatchObject({
      rota_schedulings_id: id,
      rota_vms_id: vm1,
      name: 'Alpha',
      hostname: 'alpha.lan',
    });

    const listed = await c.admin.post(`${SVMS}/index`, { rota_schedulings_id: id });
    expect(listed.status).toBe(200);
    expect(listed.body.meta).toEqual({ total: 2, current_page: 1, per_page: 20 });
    expect(listed.body.data.map((v: { name: string }) => v.name)).toEqual(['Alpha', 'Bravo']);
    expect(vmIds(await show(id))).toEqual([vm1, vm2]);

    const again = await c.admin.post(`${SVMS}/create`, {
      rota_schedulings_id: id,
      rota_vms_id: vm1,
    });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([
      { field: 'rota_vms_id', message: 'The scheduling already runs on this VM' },
    ]);

    const foreign = await c.admin.post(`${SVMS}/create`, {
      rota_schedulings_id: id,
      rota_vms_id: foreignVm,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([
      { field: 'rota_vms_id', message: 'This VM does not exist' },
    ]);

    const removed = await c.admin.post(`${SVMS}/delete`, {
      id: added.body.data.rota_scheduling_vms_id,
    });
    expect(removed.status).toBe(202);
    expect(vmIds(await show(id))).toEqual([vm2]);
    expect(
      (await c.admin.post(`${SVMS}/delete`, { id: added.body.data.rota_scheduling_vms_id })).status,
    ).toBe(404);

    // A replace through update keeps the id of a VM that stays.
    const kept = (await c.admin.post(`${SVMS}/index`, { rota_schedulings_id: id })).body.data[0];
    expect((await c.admin.put(`${B}/update`, { id, vms: [vm2, vm3] })).status).toBe(204);
    const after = (await c.admin.post(`${SVMS}/index`, { rota_schedulings_id: id })).body.data;
    expect(
      after.map((v: { rota_scheduling_vms_id: number; name: string }) => [
        v.rota_scheduling_vms_id === kept.rota_scheduling_vms_id,
        v.name,
      ]),
    ).toEqual([
      [true, 'Bravo'],
      [false, 'Charlie'],
    ]);
  });

  it('validates its input and leaves a deleted scheduling read-only', async () => {
    const missing = await c.admin.post(`${SVMS}/index`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([
      { field: 'rota_schedulings_id', message: 'Invalid value' },
    ]);
    const empty = await c.admin.post(`${SVMS}/create`, {});
    expect(empty.body.errors).toEqual([
      { field: 'rota_schedulings_id', message: 'Invalid value' },
      { field: 'rota_vms_id', message: 'Required VM' },
    ]);

    const id = await createScheduling(c.admin, scheduling('Retired', { vms: [vm1] }));
    const link = (await c.admin.post(`${SVMS}/index`, { rota_schedulings_id: id })).body.data[0];
    expect((await c.admin.post(`${B}/delete`, { id })).status).toBe(202);
    expect((await c.admin.post(`${SVMS}/index`, { rota_schedulings_id: id })).body.meta.total).toBe(
      1,
    );
    expect(
      (await c.admin.post(`${SVMS}/create`, { rota_schedulings_id: id, rota_vms_id: vm2 })).status,
    ).toBe(404);
    expect((await c.admin.post(`${SVMS}/delete`, { id: link.rota_scheduling_vms_id })).status).toBe(
      404,
    );
  });

  it('drops a deleted VM from the schedulings that used it', async () => {
    const doomed = await createVm(c.admin, 'Doomed');
    const id = await createScheduling(c.admin, scheduling('Loses a VM', { vms: [vm1, doomed] }));
    expect((await c.admin.post(`${VMS}/delete`, { id: doomed })).status).toBe(202);
    expect(vmIds(await show(id))).toEqual([vm1]);
  });
});
