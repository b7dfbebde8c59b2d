import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, teamRobots } from '../src/db/schema/index.js';
import { localDay } from '../src/lib/date-range.js';
import { ACTIVITY, ROBOT, runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { createTeam, signedInUser, TEAM_ROBOTS, TEAM_USERS, TEAMS } from './helpers/teams.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { openStream } from './helpers/event-stream.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

const FIELDS = '/api/rota/robot/field/api/v1';
const VERSIONS = '/api/rota/robot/version/api/v1';
const TASKS = '/api/rota/task/api/v1';
const SCHEDULINGS = '/api/rota/scheduling/api/v1';
const SCHEDULING_VMS = '/api/rota/scheduling/vms/api/v1';
const DASHBOARD = '/api/rota/dashboard/api/v1';
const FUTURE = '2099-12-31';

type Caller = ReturnType<typeof client>;
type User = Awaited<ReturnType<typeof signedInUser>>;

let t: TestApp;
let c: Tenants;
/** Administrators of the other client (every permission there, USUARIOS included). */
let otherAdmin: User;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['USUARIOS.LIST'] });
  otherAdmin = await signedInUser(t, c.otherClientId, 'otheradmin');
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const ids = (rows: Record<string, unknown>[], key: string) => rows.map((r) => r[key]);

async function auditOf(entity: string, entityId: number) {
  return t.db
    .select({ action: auditLogs.action, before: auditLogs.before, after: auditLogs.after })
    .from(auditLogs)
    .where(and(eq(auditLogs.entity, entity), eq(auditLogs.entity_id, String(entityId))))
    .orderBy(auditLogs.audit_logs_id);
}

describe('teams', () => {
  it('round-trips create, show, update, list and delete, robots and users included', async () => {
    const r1 = await createRobot(c.admin, 'Crud robot 1');
    const r2 = await createRobot(c.admin, 'Crud robot 2');
    const u1 = await signedInUser(t, c.defaultClientId, 'crud1');
    const u2 = await signedInUser(t, c.defaultClientId, 'crud2');

    const created = await c.admin.post(`${TEAMS}/create`, {
      name: 'Finance',
      description: 'Invoices and payments',
      robots: [r1, r1],
      users: [u1.id],
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({
      name: 'Finance',
      description: 'Invoices and payments',
      robots: 1,
      users: 1,
      robot_ids: [r1],
      user_ids: [u1.id],
    });
    const id = created.body.data.teams_id as number;

    const shown = await c.admin.post(`${TEAMS}/show`, { id });
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual(created.body.data);

    const updated = await c.admin.put(`${TEAMS}/update`, {
      id,
      name: 'Finance ops',
      description: '',
      robots: [r2, r1],
      users: [u2.id],
    });
    expect(updated.status).toBe(204);
    const after = (await c.admin.post(`${TEAMS}/show`, { id })).body.data;
    expect(after).toMatchObject({
      name: 'Finance ops',
      description: null,
      robots: 2,
      users: 1,
      robot_ids: [r1, r2].sort((a, b) => a - b),
      user_ids: [u2.id],
    });
    // Leaving a set out keeps it.
    expect((await c.admin.put(`${TEAMS}/update`, { id, description: 'Back' })).status).toBe(204);
    expect((await c.admin.post(`${TEAMS}/show`, { id })).body.data).toMatchObject({
      name: 'Finance ops',
      description: 'Back',
      robots: 2,
      users: 1,
    });

    const listed = await c.admin.post(`${TEAMS}/index`, { search: 'finance' });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({ teams_id: id, robots: 2, users: 1 });
    expect(listed.body.data[0]).not.toHaveProperty('robot_ids');

    const removed = await c.admin.post(`${TEAMS}/delete`, { id });
    expect(removed.status).toBe(202);
    expect(removed.body.message).toBe('Removed!');
    expect((await c.admin.post(`${TEAMS}/show`, { id })).status).toBe(404);
    expect(await t.db.select().from(teamRobots).where(eq(teamRobots.teams_id, id))).toEqual([]);

    const audit = await auditOf('team', id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'update', 'delete']);
    expect(audit[1]!.after).toMatchObject({ name: 'Finance ops', user_ids: [u2.id] });
    expect(audit[3]!.before).toMatchObject({ name: 'Finance ops' });
  });

  it('paginates, searches and sorts', async () => {
    for (let i = 1; i <= 12; i++) {
      await createTeam(c.admin, `Squad ${String(i).padStart(2, '0')}`);
    }
    const page = await c.admin.post(`${TEAMS}/index`, { search: 'squad', page: 3, per_page: 5 });
    expect(page.body.meta).toEqual({ total: 12, current_page: 3, per_page: 5 });
    expect(ids(page.body.data, 'name')).toEqual(['Squad 11', 'Squad 12']);
    const desc = await c.admin.post(`${TEAMS}/index`, {
      search: 'squad',
      sort: 'name',
      order: 'desc',
      per_page: 2,
    });
    expect(ids(desc.body.data, 'name')).toEqual(['Squad 12', 'Squad 11']);
    const bad = await c.admin.post(`${TEAMS}/index`, { sort: 'robots', per_page: 500 });
    expect(bad.status).toBe(400);
  });

  it('validates, in the caller’s language', async () => {
    const missing = await c.admin.post(`${TEAMS}/create`, { name: '  ' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'name', message: 'Required name' }]);
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    const missingPt = await pt.post(`${TEAMS}/create`, {});
    expect(missingPt.body.errors).toEqual([{ field: 'name', message: 'Nome obrigatório' }]);

    const notIds = await c.admin.post(`${TEAMS}/create`, { name: 'X', robots: ['a'] });
    expect(notIds.status).toBe(400);
    expect(notIds.body.errors[0]).toMatchObject({ message: 'Invalid value' });

    await createTeam(c.admin, 'Payroll');
    const duplicate = await c.admin.post(`${TEAMS}/create`, { name: 'PAYROLL' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errors).toEqual([
      { field: 'name', message: 'A team with this name already exists' },
    ]);
    const other = await createTeam(c.admin, 'Treasury');
    const renamed = await c.admin.put(`${TEAMS}/update`, { id: other, name: 'payroll' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.errors[0].message).toBe('A team with this name already exists');
  });

  it('holds only the client’s robots and the client’s users', async () => {
    const theirRobot = await createRobot(otherAdmin.as, 'Their robot');
    const ours = await createRobot(c.admin, 'Our robot');
    const robotRes = await c.admin.post(`${TEAMS}/create`, {
      name: 'Mixed',
      robots: [ours, theirRobot],
    });
    expect(robotRes.status).toBe(400);
    expect(robotRes.body.errors).toEqual([
      { field: 'robots', message: 'This robot does not exist' },
    ]);
    const userRes = await c.admin.post(`${TEAMS}/create`, {
      name: 'Mixed',
      users: [otherAdmin.id],
    });
    expect(userRes.status).toBe(400);
    expect(userRes.body.errors).toEqual([{ field: 'users', message: 'This user does not exist' }]);
    // Nothing half-written: the refused team is not there.
    expect((await c.admin.post(`${TEAMS}/index`, { search: 'Mixed' })).body.meta.total).toBe(0);

    const id = await createTeam(c.admin, 'Mixed', { robots: [ours] });
    const update = await c.admin.put(`${TEAMS}/update`, { id, name: 'Mixed 2', robots: [9999999] });
    expect(update.status).toBe(400);
    // The refused update left the name and the robots as they were (one transaction).
    expect((await c.admin.post(`${TEAMS}/show`, { id })).body.data).toMatchObject({
      name: 'Mixed',
      robot_ids: [ours],
    });
  });

  it('needs USUARIOS permissions: list alone can read but not write', async () => {
    const robot = await createRobot(c.admin, 'Perm robot');
    const id = await createTeam(c.admin, 'Perm team', { robots: [robot] });
    const link = (await c.admin.post(`${TEAM_ROBOTS}/index`, { teams_id: id })).body.data[0]
      .team_robots_id as number;
    expect((await c.limited.post(`${TEAMS}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${TEAMS}/show`, { id })).status).toBe(200);
    expect((await c.limited.post(`${TEAMS}/create`, { name: 'Nope' })).status).toBe(403);
    expect((await c.limited.put(`${TEAMS}/update`, { id, name: 'Nope' })).status).toBe(403);
    expect((await c.limited.post(`${TEAMS}/delete`, { id })).status).toBe(403);
    expect((await c.limited.post(`${TEAM_ROBOTS}/index`, { teams_id: id })).status).toBe(200);
    expect(
      (await c.limited.post(`${TEAM_ROBOTS}/create`, { teams_id: id, rota_robots_id: robot }))
        .status,
    ).toBe(403);
    expect((await c.limited.post(`${TEAM_ROBOTS}/delete`, { id: link })).status).toBe(403);
    expect(
      (await c.limited.post(`${TEAM_USERS}/create`, { teams_id: id, users_id: 1 })).status,
    ).toBe(403);
    expect((await c.limited.post(`${TEAM_USERS}/delete`, { id: 1 })).status).toBe(403);

    const nobody = await signedInUser(t, c.defaultClientId, 'noperms', { permissions: [] });
    for (const base of [TEAMS, TEAM_ROBOTS, TEAM_USERS]) {
      expect((await nobody.as.post(`${base}/index`, {})).status).toBe(403);
    }
    // c.other holds everything in its client but USUARIOS.
    expect((await c.other.post(`${TEAMS}/index`, {})).status).toBe(403);
    expect((await client(t.app).post(`${TEAMS}/index`, {})).status).toBe(401);
  });

  it('answers 404 for another client’s team and links on every call', async () => {
    const robot = await createRobot(c.admin, 'Private robot');
    const id = await createTeam(c.admin, 'Private team', { robots: [robot] });
    const link = (await c.admin.post(`${TEAM_ROBOTS}/index`, { teams_id: id })).body.data[0]
      .team_robots_id as number;
    const they = otherAdmin.as;
    expect((await they.post(`${TEAMS}/show`, { id })).status).toBe(404);
    expect((await they.put(`${TEAMS}/update`, { id, name: 'Stolen' })).status).toBe(404);
    expect((await they.post(`${TEAMS}/delete`, { id })).status).toBe(404);
    expect((await they.post(`${TEAMS}/index`, { search: 'Private' })).body.meta.total).toBe(0);
    expect((await they.post(`${TEAM_ROBOTS}/index`, { teams_id: id })).status).toBe(404);
    expect((await they.post(`${TEAM_ROBOTS}/show`, { id: link })).status).toBe(404);
    expect((await they.post(`${TEAM_ROBOTS}/delete`, { id: link })).status).toBe(404);
    expect((await they.post(`${TEAM_ROBOTS}/index`, {})).body.data).toEqual([]);
    const theirRobot = await createRobot(they, 'Their own robot');
    expect(
      (await they.post(`${TEAM_ROBOTS}/create`, { teams_id: id, rota_robots_id: theirRobot }))
        .status,
    ).toBe(404);
    expect(
      (await they.post(`${TEAM_USERS}/create`, { teams_id: id, users_id: otherAdmin.id })).status,
    ).toBe(404);
    expect((await they.post(`${TEAM_USERS}/index`, { teams_id: id })).status).toBe(404);
    expect((await c.admin.post(`${TEAMS}/show`, { id })).body.data.name).toBe('Private team');
  });

  it('adds and removes robots and users one at a time, each write audited', async () => {
    const robot = await createRobot(c.admin, 'Linked robot');
    const user = await signedInUser(t, c.defaultClientId, 'linked', {});
    const id = await createTeam(c.admin, 'Linking');

    const addRobot = await c.admin.post(`${TEAM_ROBOTS}/create`, {
      teams_id: id,
      rota_robots_id: robot,
    });
    expect(addRobot.status).toBe(201);
    expect(addRobot.body.data).toMatchObject({
      teams_id: id,
      rota_robots_id: robot,
      rota_robots_name: 'Linked robot',
    });
    const again = await c.admin.post(`${TEAM_ROBOTS}/create`, {
      teams_id: id,
      rota_robots_id: robot,
    });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([
      { field: 'rota_robots_id', message: 'Already in this team' },
    ]);
    const theirRobot = await createRobot(otherAdmin.as, 'Not ours');
    const foreign = await c.admin.post(`${TEAM_ROBOTS}/create`, {
      teams_id: id,
      rota_robots_id: theirRobot,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([
      { field: 'rota_robots_id', message: 'This robot does not exist' },
    ]);
    const empty = await c.admin.post(`${TEAM_ROBOTS}/create`, { teams_id: id });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ field: 'rota_robots_id', message: 'Required robot' }]);

    const addUser = await c.admin.post(`${TEAM_USERS}/create`, { teams_id: id, users_id: user.id });
    expect(addUser.status).toBe(201);
    expect(addUser.body.data).toMatchObject({ teams_id: id, users_id: user.id, name: 'linked' });
    expect(
      (await c.admin.post(`${TEAM_USERS}/create`, { teams_id: id, users_id: user.id })).body.errors,
    ).toEqual([{ field: 'users_id', message: 'Already in this team' }]);
    const outsider = await c.admin.post(`${TEAM_USERS}/create`, {
      teams_id: id,
      users_id: otherAdmin.id,
    });
    expect(outsider.status).toBe(400);
    expect(outsider.body.errors).toEqual([
      { field: 'users_id', message: 'This user does not exist' },
    ]);
    expect(
      (await c.admin.post(`${TEAM_USERS}/create`, { teams_id: 9999999, users_id: user.id })).status,
    ).toBe(404);

    const robotsOfTeam = await c.admin.post(`${TEAM_ROBOTS}/index`, { teams_id: id });
    expect(robotsOfTeam.body.meta.total).toBe(1);
    const usersOfTeam = await c.admin.post(`${TEAM_USERS}/index`, { teams_id: id });
    expect(ids(usersOfTeam.body.data, 'users_id')).toEqual([user.id]);
    expect((await c.admin.post(`${TEAMS}/show`, { id })).body.data).toMatchObject({
      robots: 1,
      users: 1,
    });

    const robotLink = addRobot.body.data.team_robots_id as number;
    const userLink = addUser.body.data.team_users_id as number;
    expect((await c.admin.post(`${TEAM_ROBOTS}/delete`, { id: robotLink })).status).toBe(202);
    expect((await c.admin.post(`${TEAM_ROBOTS}/delete`, { id: robotLink })).status).toBe(404);
    expect((await c.admin.post(`${TEAM_USERS}/delete`, { id: userLink })).status).toBe(202);
    expect((await c.admin.post(`${TEAMS}/show`, { id })).body.data).toMatchObject({
      robots: 0,
      users: 0,
    });

    expect((await auditOf('team_robot', robotLink)).map((a) => a.action)).toEqual([
      'create',
      'delete',
    ]);
    const userAudit = await auditOf('team_user', userLink);
    expect(userAudit.map((a) => a.action)).toEqual(['create', 'delete']);
    expect(userAudit[1]!.before).toMatchObject({ teams_id: id, users_id: user.id });
  });
});

describe('team visibility', () => {
  let robotA: number;
  let robotB: number;
  let member: User;
  let free: User;
  let alpha: number;
  let vm: number;
  const today = localDay(new Date());
  const range = { startDate: today, endDate: today };
  const v: Record<
    'fieldA' | 'fieldB' | 'taskA' | 'taskB' | 'schedA' | 'schedB' | 'runA' | 'runB',
    number
  > = {} as never;

  const robotsSeen = async (as: Caller) =>
    ids((await as.post(`${ROBOT}/index`, { per_page: 100, search: 'Vis ' })).body.data, 'name');

  beforeAll(async () => {
    robotA = await createRobot(c.admin, 'Vis A');
    robotB = await createRobot(c.admin, 'Vis B');
    vm = await createVm(c.admin, 'Vis VM');
    member = await signedInUser(t, c.defaultClientId, 'member');
    free = await signedInUser(t, c.defaultClientId, 'free');
    alpha = await createTeam(c.admin, 'Alpha', { robots: [robotA], users: [member.id] });
    for (const [key, robot] of [
      ['A', robotA],
      ['B', robotB],
    ] as const) {
      const field = await c.admin.post(`${FIELDS}/create`, {
        rota_robots_id: robot,
        name: 'amount',
        label: 'Amount',
        type: 'number',
        required: false,
      });
      v[`field${key}`] = field.body.data.rota_robot_fields_id;
      const task = await c.admin.post(`${TASKS}/create`, {
        rota_robots_id: robot,
        label: `Task ${key}`,
        data: {},
        expiration_date: FUTURE,
      });
      v[`task${key}`] = task.body.data.rota_tasks_id;
      const scheduling = await c.admin.post(`${SCHEDULINGS}/create`, {
        name: `Vis scheduling ${key}`,
        rota_robots_id: robot,
        interval_minutes: 60,
        timeout_minutes: 10,
        vms: [vm],
      });
      v[`sched${key}`] = scheduling.body.data.rota_schedulings_id;
      v[`run${key}`] = await runNow(c.admin, { id: robot });
    }
  });

  it('shows a team member only their teams’ robots, and 404 for the others', async () => {
    const as = member.as;
    expect(await robotsSeen(as)).toEqual(['Vis A']);
    expect(await robotsSeen(free.as)).toEqual(['Vis A', 'Vis B']);
    expect(await robotsSeen(c.admin)).toEqual(['Vis A', 'Vis B']);

    expect((await as.post(`${ROBOT}/show`, { id: robotA })).status).toBe(200);
    expect((await as.post(`${ROBOT}/show`, { id: robotB })).status).toBe(404);
    expect((await as.put(`${ROBOT}/update`, { id: robotB, description: 'x' })).status).toBe(404);
    expect((await as.post(`${ROBOT}/run`, { id: robotB })).status).toBe(404);
    expect((await as.post(`${ROBOT}/delete`, { id: robotB })).status).toBe(404);
    expect((await free.as.post(`${ROBOT}/show`, { id: robotB })).status).toBe(200);

    expect((await as.post(`${VERSIONS}/index`, { rota_robots_id: robotB })).body.meta.total).toBe(
      0,
    );
    const fields = await as.post(`${FIELDS}/index`, { per_page: 100 });
    expect(ids(fields.body.data, 'rota_robots_id')).not.toContain(robotB);
    expect(ids(fields.body.data, 'rota_robot_fields_id')).toContain(v.fieldA);
    expect((await as.post(`${FIELDS}/show`, { id: v.fieldB })).status).toBe(404);
    expect((await as.put(`${FIELDS}/update`, { id: v.fieldB, label: 'x' })).status).toBe(404);
    expect((await as.post(`${FIELDS}/delete`, { id: v.fieldB })).status).toBe(404);
    const newField = await as.post(`${FIELDS}/create`, {
      rota_robots_id: robotB,
      name: 'other',
      label: 'Other',
      type: 'text',
      required: false,
    });
    expect(newField.status).toBe(404);
  });

  it('shows only their robots’ tasks, schedulings and executions', async () => {
    const as = member.as;
    const tasks = await as.post(`${TASKS}/index`, { per_page: 100 });
    expect(ids(tasks.body.data, 'rota_robots_id')).toEqual([robotA]);
    expect((await as.post(`${TASKS}/show`, { id: v.taskB })).status).toBe(404);
    expect((await as.put(`${TASKS}/update`, { id: v.taskB, label: 'x' })).status).toBe(404);
    expect((await as.post(`${TASKS}/delete`, { id: v.taskB })).status).toBe(404);
    const forB = await as.post(`${TASKS}/create`, {
      rota_robots_id: robotB,
      data: {},
      expiration_date: FUTURE,
    });
    expect(forB.status).toBe(404);
    const bulk = await as.post(`${TASKS}/delete_many`, { ids: [v.taskB] });
    expect(bulk.body.data.count).toBe(0);
    expect((await as.post(`${TASKS}/retry`, { ids: [v.taskB] })).body.data.count).toBe(0);
    expect((await c.admin.post(`${TASKS}/show`, { id: v.taskB })).status).toBe(200);

    const schedulings = await as.post(`${SCHEDULINGS}/index`, { search: 'Vis scheduling' });
    expect(ids(schedulings.body.data, 'rota_schedulings_id')).toEqual([v.schedA]);
    expect((await as.post(`${SCHEDULINGS}/show`, { id: v.schedB })).status).toBe(404);
    expect((await as.put(`${SCHEDULINGS}/update`, { id: v.schedB, priority: 9 })).status).toBe(404);
    expect((await as.post(`${SCHEDULINGS}/run`, { id: v.schedB })).status).toBe(404);
    expect((await as.post(`${SCHEDULINGS}/delete`, { id: v.schedB })).status).toBe(404);
    expect((await as.post(`${SCHEDULINGS}/restore`, { id: v.schedB })).status).toBe(404);
    expect(
      (await as.post(`${SCHEDULING_VMS}/index`, { rota_schedulings_id: v.schedB })).status,
    ).toBe(404);
    const moved = await as.put(`${SCHEDULINGS}/update`, { id: v.schedA, rota_robots_id: robotB });
    expect(moved.status).toBe(400);
    expect(moved.body.errors).toEqual([
      { field: 'rota_robots_id', message: 'This robot does not exist' },
    ]);
    const created = await as.post(`${SCHEDULINGS}/create`, {
      name: 'Sneaky',
      rota_robots_id: robotB,
      interval_minutes: 60,
      timeout_minutes: 10,
    });
    expect(created.status).toBe(400);
    expect((await as.post(`${SCHEDULINGS}/run`, { id: v.schedA })).status).toBe(201);

    const activity = await as.post(`${ACTIVITY}/index`, { ...range, per_page: 100 });
    expect(activity.status).toBe(200);
    expect(new Set(ids(activity.body.data, 'rota_robots_id'))).toEqual(new Set([robotA]));
    expect(ids(activity.body.data, 'execution_id')).toContain(v.runA);
    expect((await as.post(`${ACTIVITY}/show`, { id: v.runB })).status).toBe(404);
    expect((await as.post(`${ACTIVITY}/logs`, { id: v.runB })).status).toBe(404);
    expect((await as.post(`${ACTIVITY}/cancel`, { id: v.runB })).status).toBe(404);
    const csv = await as.post(`${ACTIVITY}/export`, range);
    expect(csv.status).toBe(200);
    const exported = (csv.body as string)
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => Number(line.split(',')[0]));
    expect(exported).toContain(v.runA);
    expect(exported).not.toContain(v.runB);
    const all = await free.as.post(`${ACTIVITY}/index`, { ...range, per_page: 100 });
    expect(ids(all.body.data, 'execution_id')).toEqual(expect.arrayContaining([v.runA, v.runB]));
    // Still queued: the run is B's, and the member's cancel did not reach it.
    expect((await c.admin.post(`${ACTIVITY}/show`, { id: v.runB })).body.data.status).toBe(
      'queued',
    );
  });

  it('counts only their robots on the dashboard', async () => {
    const mine = (await member.as.post(`${DASHBOARD}/index`, range)).body.data;
    const everything = (await free.as.post(`${DASHBOARD}/index`, range)).body.data;
    expect(mine.totals.robots).toBe(1);
    expect(everything.totals.robots).toBeGreaterThanOrEqual(2);
    const runsOfA = (
      await member.as.post(`${ACTIVITY}/index`, { ...range, rota_robots_id: robotA })
    ).body.meta.total;
    expect(mine.totals.executions).toBe(runsOfA);
    expect(everything.totals.executions).toBeGreaterThan(runsOfA);
    const perDay = mine.per_day.find((d: { day: string }) => d.day === today).counts;
    expect(perDay.queued).toBe(runsOfA);
  });

  it('applies team changes at the member’s next request', async () => {
    const beta = await createTeam(c.admin, 'Beta', { robots: [robotB] });
    const join = await c.admin.post(`${TEAM_USERS}/create`, {
      teams_id: beta,
      users_id: member.id,
    });
    expect(join.status).toBe(201);
    expect(await robotsSeen(member.as)).toEqual(['Vis A', 'Vis B']);

    const alphaLink = (
      await c.admin.post(`${TEAM_USERS}/index`, { teams_id: alpha, search: 'member' })
    ).body.data[0].team_users_id as number;
    expect((await c.admin.post(`${TEAM_USERS}/delete`, { id: alphaLink })).status).toBe(202);
    expect(await robotsSeen(member.as)).toEqual(['Vis B']);
    expect((await member.as.post(`${ROBOT}/show`, { id: robotA })).status).toBe(404);

    // A team without robots shows its members none.
    await c.admin.put(`${TEAMS}/update`, { id: beta, robots: [] });
    expect(await robotsSeen(member.as)).toEqual([]);

    // In no team at all: every robot of the client again.
    await c.admin.post(`${TEAMS}/delete`, { id: beta });
    expect(await robotsSeen(member.as)).toEqual(['Vis A', 'Vis B']);

    await c.admin.put(`${TEAMS}/update`, { id: alpha, users: [member.id] });
    expect(await robotsSeen(member.as)).toEqual(['Vis A']);
  });

  it('puts a robot a member creates in their teams, so they keep seeing it', async () => {
    const created = await member.as.post(`${ROBOT}/create`, {
      name: 'Vis C',
      executor: 'node main.js',
    });
    expect(created.status).toBe(201);
    const id = created.body.data.rota_robots_id as number;
    expect(await robotsSeen(member.as)).toEqual(['Vis A', 'Vis C']);
    expect((await c.admin.post(`${TEAMS}/show`, { id: alpha })).body.data.robot_ids).toContain(id);
    const [audit] = await auditOf('robot', id);
    expect(audit).toMatchObject({ action: 'create', after: { name: 'Vis C' } });
    // Someone in no team creates a robot that joins no team.
    const loose = await createRobot(free.as, 'Vis D');
    expect(await robotsSeen(member.as)).toEqual(['Vis A', 'Vis C']);
    expect((await c.admin.post(`${TEAM_ROBOTS}/index`, {})).body.data).not.toContainEqual(
      expect.objectContaining({ rota_robots_id: loose }),
    );
  });

  it('withholds the live events of robots the member cannot see', async () => {
    const mine = await openStream(base, member.token);
    const everything = await openStream(base, free.token);
    const vmOfAgent = await createVm(c.admin, 'Live VM');
    const agent = simulatedAgent(
      t.app,
      (await createAgent(c.admin, 'Live agent', vmOfAgent)).token,
    );
    expect((await agent.hello()).status).toBe(200);
    // Older runs were queued for any VM; clear them so the agent claims only these two.
    for (const id of [v.runA, v.runB]) await c.admin.post(`${ACTIVITY}/cancel`, { id });
    const pending = await c.admin.post(`${ACTIVITY}/index`, { ...range, status: 'queued' });
    for (const run of pending.body.data as { execution_id: number }[]) {
      await c.admin.post(`${ACTIVITY}/cancel`, { id: run.execution_id });
    }
    const onA = await runNow(c.admin, { id: robotA, priority: 90 });
    const onB = await runNow(c.admin, { id: robotB, priority: 80 });
    for (const expected of [onA, onB]) {
      const claimed = await agent.claim();
      expect(claimed?.execution_id).toBe(expected);
      expect((await agent.logs(expected, claimed!.attempt, ['working'])).status).toBe(200);
    }
    const sawLogOf = (stream: typeof mine, id: number) =>
      stream.events.some((e) => e.data.type === 'log' && e.data.execution_id === id);
    await everything.waitFor(() => sawLogOf(everything, onB));
    await mine.waitFor(() => sawLogOf(mine, onA));
    expect(sawLogOf(everything, onB)).toBe(true);
    expect(sawLogOf(mine, onA)).toBe(true);
    const runsSeen = (stream: typeof mine) =>
      new Set(stream.events.map((e) => ('execution_id' in e.data ? e.data.execution_id : 0)));
    expect(runsSeen(mine).has(onA)).toBe(true);
    expect(runsSeen(mine).has(onB)).toBe(false);
    expect(runsSeen(everything).has(onB)).toBe(true);
    expect(
      mine.events.every((e) => e.data.type === 'agent' || e.data.rota_robots_id === robotA),
    ).toBe(true);
    await mine.close();
    await everything.close();
  });
});
