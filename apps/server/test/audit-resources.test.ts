import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zip } from './helpers/archives.js';
import { multipart } from './helpers/multipart.js';
import { createRobot } from './helpers/robots.js';
import { createTeam, signedInUser } from './helpers/teams.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * Every change of robots, versions, fields, VMs, agents, schedulings (and their VMs),
 * parameters, environments and status items is recorded by its service, in the change's
 * transaction: the record names the action, the entity and its id, with the row as `show`
 * answers it before and after. A refused change leaves no record.
 */

const AUDIT = '/api/rota/audit/api/v1';
const ROBOTS = '/api/rota/robot/api/v1';
const VERSIONS = '/api/rota/robot/version/api/v1';
const FIELDS = '/api/rota/robot/field/api/v1';
const VMS = '/api/rota/vm/api/v1';
const AGENTS = '/api/rota/node/api/v1';
const SCHEDULINGS = '/api/rota/scheduling/api/v1';
const SCHEDULING_VMS = '/api/rota/scheduling/vms/api/v1';
const PARAMETERS = '/api/rota/parameter/api/v1';
const ENVIRONMENTS = '/api/rota/env/api/v1';
const STATUS_ITEMS = '/api/rota/status/item/api/v1';
const TASKS = '/api/rota/task/api/v1';

type Caller = Tenants['admin'];

interface Row {
  action: string;
  entity: string;
  entity_id: string | null;
  user_name: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

let t: TestApp;
let c: Tenants;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t);
});
afterAll(() => t.close());

/** Every record of one action on one row, newest first. */
async function recordsOf(action: string, entity: string, id: number, as: Caller = c.admin) {
  const answer = await as.post(`${AUDIT}/index`, { action, entity, per_page: 100 });
  expect(answer.status).toBe(200);
  return (answer.body.data as Row[]).filter((r) => r.entity_id === String(id));
}

/** The one record of an action on a row. */
async function recordOf(action: string, entity: string, id: number, as: Caller = c.admin) {
  const rows = await recordsOf(action, entity, id, as);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** What `show` answers for a row now. */
async function shown(base: string, id: number, as: Caller = c.admin) {
  const answer = await as.post(`${base}/show`, { id });
  expect(answer.status).toBe(200);
  return answer.body.data as Record<string, unknown>;
}

/**
 * Records update and delete of a resource whose `update` takes `changes`: before is the row
 * before the change, after the row `show` answered after it; delete keeps only before.
 */
async function expectUpdateAndDelete(
  base: string,
  entity: string,
  id: number,
  changes: Record<string, unknown>,
) {
  const before = await shown(base, id);
  expect((await c.admin.put(`${base}/update`, { id, ...changes })).status).toBe(204);
  const after = await shown(base, id);
  const updated = await recordOf('update', entity, id);
  expect(updated.before).toEqual(before);
  expect(updated.after).toEqual(after);
  expect(updated.after).toMatchObject(changes);
  expect(updated.user_name).toBe('Admin Rota');

  expect((await c.admin.post(`${base}/delete`, { id })).status).toBe(202);
  const deleted = await recordOf('delete', entity, id);
  expect(deleted.before).toEqual(after);
  expect(deleted.after).toBeNull();
}

describe('audit records of robots and what hangs off them', () => {
  it('robot: create, update and delete', async () => {
    const created = await c.admin.post(`${ROBOTS}/create`, {
      name: 'Audited robot',
      executor: 'node main.js',
    });
    expect(created.status).toBe(201);
    const id = created.body.data.rota_robots_id as number;
    const record = await recordOf('create', 'robot', id);
    expect(record.before).toBeNull();
    expect(record.after).toEqual(created.body.data);

    await expectUpdateAndDelete(ROBOTS, 'robot', id, { description: 'Now described' });
  });

  it('robot: a team member’s new robot is recorded as they see it, in their teams', async () => {
    const fresh = await setUpTenants(t);
    const clientId = fresh.otherClientId;
    const owner = await signedInUser(t, clientId, `audit.owner.${clientId}`);
    const boss = await signedInUser(t, clientId, `audit.maker.${clientId}`, {
      permissions: ['ROBOS.LIST', 'ROBOS.CREATE', 'USUARIOS.LIST'],
    });
    // In a team (with no robot yet): they see only their teams' robots.
    await createTeam(owner.as, 'Makers', { users: [boss.id] });
    const created = await boss.as.post(`${ROBOTS}/create`, {
      name: 'Made by a member',
      executor: 'x',
    });
    expect(created.status).toBe(201);
    const id = created.body.data.rota_robots_id as number;
    expect((await recordOf('create', 'robot', id, boss.as)).after).toEqual(created.body.data);
  });

  it('robot: a refused delete (a live scheduling) leaves no record and the robot', async () => {
    const robot = await createRobot(c.admin, 'Scheduled robot');
    const scheduling = await c.admin.post(`${SCHEDULINGS}/create`, {
      name: 'Keeps its robot',
      rota_robots_id: robot,
      interval_minutes: 15,
      timeout_minutes: 10,
    });
    expect(scheduling.status).toBe(201);
    expect((await c.admin.post(`${ROBOTS}/delete`, { id: robot })).status).toBe(409);
    expect(await recordsOf('delete', 'robot', robot)).toEqual([]);
    await shown(ROBOTS, robot);
  });

  it('robot version: upload, update (notes, current) and delete', async () => {
    const robot = await createRobot(c.admin, 'Versioned robot');
    const upload = async (version: string) => {
      const { payload, contentType } = multipart(
        { rota_robots_id: robot, version },
        { name: 'robot.zip', data: zip([{ name: 'main.js', data: `// ${version}` }]) },
      );
      const response = await t.app.inject({
        method: 'POST',
        url: `${VERSIONS}/create`,
        payload,
        headers: { 'content-type': contentType, authorization: c.admin.authorization! },
      });
      expect(response.statusCode).toBe(201);
      return response.json().data as Record<string, unknown> & { rota_robot_versions_id: number };
    };
    const first = await upload('1.0.0');
    const second = await upload('1.1.0');
    const record = await recordOf('create', 'robot_version', first.rota_robot_versions_id);
    expect(record.before).toBeNull();
    expect(record.after).toEqual(first);

    const id = second.rota_robot_versions_id;
    const before = await shown(VERSIONS, id);
    expect(before.current).toBe(false);
    const made = await c.admin.put(`${VERSIONS}/update`, { id, current: true, notes: 'Go' });
    expect(made.status).toBe(204);
    const updated = await recordOf('update', 'robot_version', id);
    expect(updated.before).toEqual(before);
    expect(updated.after).toEqual(await shown(VERSIONS, id));
    expect(updated.after).toMatchObject({ current: true, notes: 'Go' });

    // The current one stays: refused, and not recorded.
    expect((await c.admin.post(`${VERSIONS}/delete`, { id })).status).toBe(409);
    expect(await recordsOf('delete', 'robot_version', id)).toEqual([]);

    const old = first.rota_robot_versions_id;
    const last = await shown(VERSIONS, old);
    expect((await c.admin.post(`${VERSIONS}/delete`, { id: old })).status).toBe(202);
    const deleted = await recordOf('delete', 'robot_version', old);
    expect(deleted.before).toEqual(last);
    expect(deleted.after).toBeNull();
  });

  it('robot field: create, update and delete', async () => {
    const robot = await createRobot(c.admin, 'Robot with fields');
    const created = await c.admin.post(`${FIELDS}/create`, {
      rota_robots_id: robot,
      name: 'invoice',
      label: 'Invoice',
    });
    expect(created.status).toBe(201);
    const id = created.body.data.rota_robot_fields_id as number;
    const record = await recordOf('create', 'robot_field', id);
    expect(record.before).toBeNull();
    expect(record.after).toEqual(created.body.data);

    // A name taken: refused, and not recorded.
    const again = await c.admin.post(`${FIELDS}/create`, {
      rota_robots_id: robot,
      name: 'INVOICE',
      label: 'Again',
    });
    expect(again.status).toBe(409);
    const creates = await c.admin.post(`${AUDIT}/index`, {
      action: 'create',
      entity: 'robot_field',
      per_page: 100,
    });
    expect(creates.body.data.filter((r: Row) => r.after?.label === 'Again')).toEqual([]);

    await expectUpdateAndDelete(FIELDS, 'robot_field', id, { label: 'Invoice number' });
  });

  it('task: create, update, delete, retry and delete_many', async () => {
    const robot = await createRobot(c.admin, 'Robot with tasks');
    const task = { rota_robots_id: robot, expiration_date: '2099-12-31T23:59:59.999Z' };
    const created = await c.admin.post(`${TASKS}/create`, { ...task, label: 'First' });
    expect(created.status).toBe(201);
    const id = created.body.data.rota_tasks_id as number;
    const record = await recordOf('create', 'task', id);
    expect(record.before).toBeNull();
    expect(record.after).toEqual(created.body.data);
    await expectUpdateAndDelete(TASKS, 'task', id, { label: 'First, renamed' });

    const second = await c.admin.post(`${TASKS}/create`, { ...task, label: 'Second' });
    const secondId = second.body.data.rota_tasks_id as number;
    // A pending task is not retried: the record says how many moved.
    const retried = await c.admin.post(`${TASKS}/retry`, { ids: [secondId] });
    expect(retried.status).toBe(200);
    const bulk = await c.admin.post(`${AUDIT}/index`, { entity: 'task', per_page: 100 });
    const retry = (bulk.body.data as Row[]).find(
      (r) => r.entity_id === null && r.action === 'update',
    );
    expect(retry?.after).toEqual({ retried: [secondId], count: 0 });

    expect((await c.admin.post(`${TASKS}/delete_many`, { ids: [secondId] })).status).toBe(202);
    const after = await c.admin.post(`${AUDIT}/index`, { entity: 'task', per_page: 100 });
    const removed = (after.body.data as Row[]).find(
      (r) => r.entity_id === null && r.action === 'delete',
    );
    expect(removed?.before).toEqual({ ids: [secondId], count: 1 });
  });
});

describe('audit records of VMs, agents and schedulings', () => {
  it('VM: create, update and delete; a VM with agents is not deleted nor recorded', async () => {
    const created = await c.admin.post(`${VMS}/create`, { name: 'Audit VM', hostname: 'a-vm' });
    expect(created.status).toBe(201);
    const id = created.body.data.rota_vms_id as number;
    const record = await recordOf('create', 'vm', id);
    expect(record.before).toBeNull();
    expect(record.after).toEqual(created.body.data);

    const busy = await createVm(c.admin, 'Busy VM');
    await createAgent(c.admin, 'Busy agent', busy);
    expect((await c.admin.post(`${VMS}/delete`, { id: busy })).status).toBe(409);
    expect(await recordsOf('delete', 'vm', busy)).toEqual([]);

    await expectUpdateAndDelete(VMS, 'vm', id, { label: 'Finance' });
  });

  it('agent: create (no token kept), update, rotate_token and delete', async () => {
    const vm = await createVm(c.admin, 'Agents VM');
    const other = await createVm(c.admin, 'Other agents VM');
    const created = await c.admin.post(`${AGENTS}/create`, {
      name: 'Audit agent',
      rota_vms_id: vm,
    });
    expect(created.status).toBe(201);
    const { token, ...agent } = created.body.data as Record<string, unknown> & {
      token: string;
      rota_nodes_id: number;
    };
    const id = agent.rota_nodes_id;
    const record = await recordOf('create', 'agent', id);
    expect(record.before).toBeNull();
    expect(record.after).toEqual(agent);
    expect(JSON.stringify(record)).not.toContain(token);

    const before = await shown(AGENTS, id);
    const rotated = await c.admin.post(`${AGENTS}/rotate_token`, { id });
    expect(rotated.status).toBe(200);
    const rotation = await recordOf('rotate_token', 'agent', id);
    expect(rotation.before).toEqual(before);
    expect(rotation.after).toEqual(await shown(AGENTS, id));
    expect(JSON.stringify(rotation)).not.toContain(rotated.body.data.token);

    await expectUpdateAndDelete(AGENTS, 'agent', id, { rota_vms_id: other });
  });

  it('scheduling: create, update, delete (soft) and restore', async () => {
    const robot = await createRobot(c.admin, 'Audit scheduled robot');
    const vm = await createVm(c.admin, 'Scheduling VM');
    const created = await c.admin.post(`${SCHEDULINGS}/create`, {
      name: 'Audit scheduling',
      rota_robots_id: robot,
      interval_minutes: 15,
      timeout_minutes: 10,
      vms: [vm],
    });
    expect(created.status).toBe(201);
    const id = created.body.data.rota_schedulings_id as number;
    const record = await recordOf('create', 'scheduling', id);
    expect(record.before).toBeNull();
    expect(record.after).toEqual(created.body.data);
    expect(record.after!.vms).toEqual([{ rota_vms_id: vm, name: 'Scheduling VM' }]);

    const before = await shown(SCHEDULINGS, id);
    expect((await c.admin.put(`${SCHEDULINGS}/update`, { id, priority: 7, vms: [] })).status).toBe(
      204,
    );
    const updated = await recordOf('update', 'scheduling', id);
    expect(updated.before).toEqual(before);
    expect(updated.after).toEqual(await shown(SCHEDULINGS, id));
    expect(updated.after).toMatchObject({ priority: 7, vms: [] });

    const live = await shown(SCHEDULINGS, id);
    expect((await c.admin.post(`${SCHEDULINGS}/delete`, { id })).status).toBe(202);
    const deleted = await recordOf('delete', 'scheduling', id);
    expect(deleted.before).toEqual(live);
    expect(deleted.after).toBeNull();

    const gone = await shown(SCHEDULINGS, id);
    expect(gone.deleted_at).not.toBeNull();
    expect((await c.admin.post(`${SCHEDULINGS}/restore`, { id })).status).toBe(200);
    const restored = await recordOf('restore', 'scheduling', id);
    expect(restored.before).toEqual(gone);
    expect(restored.after).toEqual(await shown(SCHEDULINGS, id));
    expect(restored.after!.deleted_at).toBeNull();
  });

  it('scheduling VM: create and delete', async () => {
    const robot = await createRobot(c.admin, 'Audit robot of VMs');
    const vm = await createVm(c.admin, 'One more VM');
    const scheduling = await c.admin.post(`${SCHEDULINGS}/create`, {
      name: 'Scheduling of VMs',
      rota_robots_id: robot,
      interval_minutes: 15,
      timeout_minutes: 10,
    });
    const schedulingId = scheduling.body.data.rota_schedulings_id as number;
    const created = await c.admin.post(`${SCHEDULING_VMS}/create`, {
      rota_schedulings_id: schedulingId,
      rota_vms_id: vm,
    });
    expect(created.status).toBe(201);
    const id = created.body.data.rota_scheduling_vms_id as number;
    const record = await recordOf('create', 'scheduling_vm', id);
    expect(record.before).toBeNull();
    expect(record.after).toEqual(created.body.data);
    expect(record.after).toMatchObject({ rota_schedulings_id: schedulingId, rota_vms_id: vm });

    // Twice: refused, and not recorded.
    const twice = await c.admin.post(`${SCHEDULING_VMS}/create`, {
      rota_schedulings_id: schedulingId,
      rota_vms_id: vm,
    });
    expect(twice.status).toBe(409);
    const creates = await c.admin.post(`${AUDIT}/index`, {
      action: 'create',
      entity: 'scheduling_vm',
      per_page: 100,
    });
    expect(creates.body.data.filter((r: Row) => r.after?.rota_vms_id === vm)).toHaveLength(1);

    expect((await c.admin.post(`${SCHEDULING_VMS}/delete`, { id })).status).toBe(202);
    const deleted = await recordOf('delete', 'scheduling_vm', id);
    expect(deleted.before).toEqual(created.body.data);
    expect(deleted.after).toBeNull();
  });
});

describe('audit records of settings', () => {
  it('parameter: create, update and delete, never with the password', async () => {
    const created = await c.admin.post(`${PARAMETERS}/create`, {
      name: 'AUDIT_PARAMETER',
      value: 'plain',
    });
    expect(created.status).toBe(201);
    const id = created.body.data.rota_parameters_id as number;
    const record = await recordOf('create', 'parameter', id);
    expect(record.before).toBeNull();
    expect(record.after).toEqual(created.body.data);

    await expectUpdateAndDelete(PARAMETERS, 'parameter', id, { description: 'Described' });
  });

  it('parameter: a password set is recorded as has_password only', async () => {
    const created = await c.admin.post(`${PARAMETERS}/create`, { name: 'AUDIT_PW', value: 'v' });
    const id = created.body.data.rota_parameters_id as number;
    const before = await shown(PARAMETERS, id);
    const res = await c.admin.put(`${PARAMETERS}/update`, { id, password: 'audit-secret-pw' });
    expect(res.status).toBe(204);
    const updated = await recordOf('update', 'parameter', id);
    expect(updated.before).toEqual(before);
    expect(updated.after).toEqual(await shown(PARAMETERS, id));
    expect(updated.after).toMatchObject({ value: null, has_password: true });
    expect(JSON.stringify(updated)).not.toContain('audit-secret-pw');

    const last = await shown(PARAMETERS, id);
    expect((await c.admin.post(`${PARAMETERS}/delete`, { id })).status).toBe(202);
    const deleted = await recordOf('delete', 'parameter', id);
    expect(deleted.before).toEqual(last);
    expect(deleted.after).toBeNull();
  });

  it('environment: create, update and delete, never with a secret', async () => {
    const created = await c.admin.post(`${ENVIRONMENTS}/create`, {
      title: 'Audit environment',
      db_url: 'db.example.com',
      db_pass: 'audit-db-pass',
      rota_token: 'audit-rota-token',
    });
    expect(created.status).toBe(201);
    const id = created.body.data.rota_environments_id as number;
    const record = await recordOf('create', 'environment', id);
    expect(record.before).toBeNull();
    expect(record.after).toEqual(created.body.data);
    expect(record.after).toMatchObject({ has_db_pass: true, has_rota_token: true });

    await expectUpdateAndDelete(ENVIRONMENTS, 'environment', id, { title: 'Renamed environment' });
    const dump = JSON.stringify(
      (await c.admin.post(`${AUDIT}/index`, { entity: 'environment', per_page: 100 })).body,
    );
    expect(dump).not.toContain('audit-db-pass');
    expect(dump).not.toContain('audit-rota-token');
  });

  it('status item: update', async () => {
    const items = await c.admin.post(`${STATUS_ITEMS}/index`, { search: 'timeout' });
    const id = items.body.data[0].rota_status_items_id as number;
    const before = await shown(STATUS_ITEMS, id);
    const res = await c.admin.put(`${STATUS_ITEMS}/update`, { id, color: '#123456' });
    expect(res.status).toBe(204);
    const updated = await recordOf('update', 'status_item', id);
    expect(updated.before).toEqual(before);
    expect(updated.after).toEqual(await shown(STATUS_ITEMS, id));
    expect(updated.after).toMatchObject({ color: '#123456' });
  });
});
