import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDay } from '../src/lib/date-range.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createRobot } from './helpers/robots.js';
import { runNow } from './helpers/engine.js';
import { createTeam, signedInUser } from './helpers/teams.js';

const AUDIT = '/api/rota/audit/api/v1';
const ROBOTS = '/api/rota/robot/api/v1';
const PARAMETERS = '/api/rota/parameter/api/v1';
const AGENTS = '/api/rota/node/api/v1';
const VMS = '/api/rota/vm/api/v1';

let t: TestApp;
let c: Tenants;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
});
afterAll(() => t.close());

interface Row {
  action: string;
  entity: string;
  entity_id: string | null;
  user_name: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  request_id: string | null;
}

async function records(filters: object = {}): Promise<Row[]> {
  const answer = await c.admin.post(`${AUDIT}/index`, { per_page: 100, ...filters });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

describe('audit log', () => {
  it('records create, update and delete with the row before and after, and who did it', async () => {
    const id = await createRobot(c.admin, 'Audited robot');
    await c.admin.put(`${ROBOTS}/update`, { id, description: 'Now described' });
    await c.admin.post(`${ROBOTS}/delete`, { id });

    const rows = (await records({ entity: 'robot' })).filter((r) => r.entity_id === String(id));
    expect(rows.map((r) => r.action)).toEqual(['delete', 'update', 'create']);
    const [deleted, updated, created] = rows;
    expect(created!.after).toMatchObject({ name: 'Audited robot', rota_robots_id: id });
    expect(created!.before).toBeNull();
    expect(updated!.before).toMatchObject({ description: null });
    expect(updated!.after).toMatchObject({ description: 'Now described' });
    expect(deleted!.before).toMatchObject({ name: 'Audited robot' });
    expect(deleted!.after).toBeNull();
    expect(created!.user_name).toBe('Admin Rota');
    expect(created!.request_id).toEqual(expect.any(String));
  });

  it('never keeps a secret: parameter passwords and agent tokens stay out', async () => {
    const parameter = await c.admin.post(`${PARAMETERS}/create`, {
      name: 'AUDIT_SECRET',
      password: 'hunter2-very-secret',
    });
    expect(parameter.status).toBe(201);
    const vm = await c.admin.post(`${VMS}/create`, { name: 'Audit VM', hostname: 'audit-vm' });
    const agent = await c.admin.post(`${AGENTS}/create`, {
      name: 'Audit agent',
      rota_vms_id: vm.body.data.rota_vms_id,
    });
    expect(agent.status).toBe(201);
    const token: string = agent.body.data.token;
    const rotated = await c.admin.post(`${AGENTS}/rotate_token`, {
      id: agent.body.data.rota_nodes_id,
    });
    expect(rotated.status).toBe(200);

    const rows = await records();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain('hunter2-very-secret');
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(rotated.body.data.token);
    const created = rows.find((r) => r.entity === 'parameter' && r.action === 'create');
    expect(created!.after).toMatchObject({ name: 'AUDIT_SECRET', has_password: true });
    expect(rows.some((r) => r.entity === 'agent' && r.action === 'rotate_token')).toBe(true);

    const { rows: stored } = (await t.db.execute(
      sql`select count(*)::int as n from audit_logs
           where before::text like '%hunter2%' or after::text like '%hunter2%'`,
    )) as unknown as { rows: { n: number }[] };
    expect(stored[0]!.n).toBe(0);
  });

  it('filters by action, entity and day, newest first', async () => {
    await createRobot(c.admin, 'Filter robot');
    const creates = await records({ action: 'create', entity: 'robot' });
    expect(creates.length).toBeGreaterThan(0);
    expect(creates.every((r) => r.action === 'create' && r.entity === 'robot')).toBe(true);
    expect(creates[0]!.after).toMatchObject({ name: 'Filter robot' });

    const today = localDay(new Date());
    expect((await records({ startDate: today, endDate: today })).length).toBeGreaterThan(0);
    expect(await records({ startDate: '2020-01-01', endDate: '2020-01-02' })).toEqual([]);

    const badAction = await c.admin.post(`${AUDIT}/index`, { action: 'nope' });
    expect(badAction.status).toBe(400);
    expect(badAction.body.errors).toEqual([{ field: 'action', message: 'Invalid value' }]);
    const future = await c.admin.post(`${AUDIT}/index`, { endDate: '2999-01-01' });
    expect(future.status).toBe(400);
    expect(future.body.errors).toEqual([{ field: 'endDate', message: 'Max data' }]);
  });

  it('is per client and needs USUARIOS.LIST', async () => {
    await createRobot(c.other, 'Other client robot');
    const mine = await records();
    expect(mine.some((r) => r.after?.name === 'Other client robot')).toBe(false);
    const theirs = await c.other.post(`${AUDIT}/index`, {});
    // The other client's profile lacks USUARIOS.LIST.
    expect(theirs.status).toBe(403);
    expect((await c.limited.post(`${AUDIT}/index`, {})).status).toBe(403);
  });

  it('shows a team member only the records about their teams’ robots', async () => {
    const fresh = await setUpTenants(t);
    const clientId = fresh.otherClientId;
    const boss = await signedInUser(t, clientId, `audit.boss.${clientId}`);
    const mine = await createRobot(boss.as, 'Team robot');
    const theirs = await createRobot(boss.as, 'Hidden robot');
    for (const robot of [mine, theirs]) {
      await boss.as.put(`${ROBOTS}/update`, { id: robot, description: 'changed' });
      const field = await boss.as.post('/api/rota/robot/field/api/v1/create', {
        rota_robots_id: robot,
        name: `field_${robot}`,
        label: 'Field',
      });
      expect(field.status).toBe(201);
      const task = await boss.as.post('/api/rota/task/api/v1/create', {
        rota_robots_id: robot,
        expiration_date: '2099-01-01',
      });
      expect(task.status).toBe(201);
      await boss.as.post('/api/rota/task/api/v1/delete', { id: task.body.data.rota_tasks_id });
      const execution = await runNow(boss.as, { id: robot });
      expect(
        (await boss.as.post('/api/rota/activity/api/v1/cancel', { id: execution })).status,
      ).toBe(202);
    }
    const parameter = await boss.as.post(`${PARAMETERS}/create`, {
      name: 'TEAM_VISIBLE',
      value: 'x',
    });
    expect(parameter.status).toBe(201);

    const member = await signedInUser(t, clientId, `audit.member.${clientId}`, {
      permissions: ['USUARIOS.LIST', 'ROBOS.LIST'],
    });
    await createTeam(boss.as, 'Audit team', { robots: [mine], users: [member.id] });

    const about = (rows: Row[], robot: number) =>
      rows.filter(
        (r) =>
          (r.entity === 'robot' && r.entity_id === String(robot)) ||
          r.after?.rota_robots_id === robot ||
          r.before?.rota_robots_id === robot,
      );
    const list = async (as: typeof member.as) => {
      const answer = await as.post(`${AUDIT}/index`, { per_page: 100 });
      expect(answer.status).toBe(200);
      return answer.body as { data: Row[]; meta: { total: number } };
    };
    const everything = await list(boss.as);
    const seen = await list(member.as);
    // The boss is in no team: every record. Robot, field, task rows and cancels of both robots.
    expect(about(everything.data, theirs).length).toBeGreaterThanOrEqual(5);
    expect(everything.data.filter((r) => r.entity === 'execution')).toHaveLength(2);

    expect(about(seen.data, theirs)).toEqual([]);
    expect(seen.data.some((r) => r.after?.name === 'Hidden robot')).toBe(false);
    expect(
      about(seen.data, mine)
        .map((r) => `${r.action} ${r.entity}`)
        .sort(),
    ).toEqual(
      about(everything.data, mine)
        .map((r) => `${r.action} ${r.entity}`)
        .sort(),
    );
    // The cancel of the team robot's execution stays, the other one goes.
    expect(seen.data.filter((r) => r.entity === 'execution')).toHaveLength(1);
    // Records about no robot stay visible (the parameter, the team itself).
    expect(seen.data.some((r) => r.entity === 'parameter')).toBe(true);
    expect(seen.data.some((r) => r.entity === 'team')).toBe(true);
    expect(seen.meta.total).toBe(seen.data.length);
    expect(seen.meta.total).toBeLessThan(everything.meta.total);
    // The robot filter of entity does not reopen it.
    const robots = await member.as.post(`${AUDIT}/index`, { entity: 'robot', per_page: 100 });
    expect(robots.body.data.map((r: Row) => r.entity_id)).not.toContain(String(theirs));
  });

  it('cannot be edited, not even straight in the database', async () => {
    await expect(t.db.execute(sql`update audit_logs set action = 'forged'`)).rejects.toThrow();
    await expect(t.db.execute(sql`delete from audit_logs`)).rejects.toThrow();
    // Retention's own setting (migration 0017) opens DELETE, in its transaction only; never UPDATE.
    await expect(
      t.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('rota.audit_retention', 'on', true)`);
        await tx.execute(sql`update audit_logs set action = 'forged'`);
      }),
    ).rejects.toThrow();
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('rota.audit_retention', 'on', true)`);
      await tx.execute(sql`select 1`);
    });
    await expect(t.db.execute(sql`delete from audit_logs`)).rejects.toThrow();
    const rows = await records();
    expect(rows.some((r) => r.action === 'forged')).toBe(false);
    expect(rows.length).toBeGreaterThan(0);
  });
});
