import { createHash } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLogs,
  teamRobots,
  teams,
  teamUsers,
  rateLimits,
  rotaExecutions,
  rotaTasks,
  rotaTriggerFires,
  rotaTriggers,
} from '../src/db/schema/index.js';
import { provisionClient } from '../src/modules/clients/provision-client.js';
import { createProfile, createUser, findClient } from './helpers/fixtures.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

/** Run triggers: made with ROBOS.UPDATE, fired by another system with their token. */

const API = '/api/rota/trigger/api/v1';
let t: TestApp;
let admin: ReturnType<typeof client>;
let robot: number;
let foreignVm: number;

async function fire(token: string, body: unknown = {}, headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${API}/fire`,
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en', ...headers },
    payload: body as object,
  });
  return { status: res.statusCode, headers: res.headers, body: JSON.parse(res.body) };
}

async function newTrigger(name: string) {
  const res = await admin.post(`${API}/create`, { rota_robots_id: robot, name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { rota_triggers_id: number; token: string; token_hint: string };
}

const executionsOf = (ids: number[]) =>
  t.db.select().from(rotaExecutions).where(inArray(rotaExecutions.rota_executions_id, ids));

beforeAll(async () => {
  t = await createTestApp({ engine: { loop: false } });
  admin = client(t.app, { token: await signIn(t.app, ADMIN.access, ADMIN.password), lang: 'en' });
  const created = await admin.post('/api/rota/robot/api/v1/create', {
    name: 'Triggered robot',
    executor: 'node main.js',
  });
  robot = created.body.data.rota_robots_id;

  const other = await provisionClient(t.db, 'Trigger other');
  await createUser(t.db, {
    access: 'trigger.other',
    password: 'other-password',
    memberships: [{ clientId: other.client.rota_clients_id, profileId: other.profile.profiles_id }],
  });
  const otherAdmin = client(t.app, {
    token: await signIn(t.app, 'trigger.other', 'other-password'),
    lang: 'en',
  });
  const vm = await otherAdmin.post('/api/rota/vm/api/v1/create', {
    name: 'Other VM',
    hostname: 'other-vm',
  });
  foreignVm = vm.body.data.rota_vms_id;
}, 60_000);
afterAll(() => t.close());

describe('run triggers', () => {
  it('answers the token once and stores only its SHA-256', async () => {
    const trigger = await newTrigger('Once');
    expect(trigger.token).toMatch(/^rota_trg_[\w-]{43}$/);
    expect(trigger.token_hint).toBe(trigger.token.slice(-4));
    const [row] = await t.db
      .select()
      .from(rotaTriggers)
      .where(eq(rotaTriggers.rota_triggers_id, trigger.rota_triggers_id));
    expect(row!.token_hash).toBe(createHash('sha256').update(trigger.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(trigger.token);

    const shown = await admin.post(`${API}/show`, { id: trigger.rota_triggers_id });
    expect(shown.status).toBe(200);
    expect(shown.body.data).not.toHaveProperty('token');
    expect(shown.body.data.robot_name).toBe('Triggered robot');
    const listed = await admin.post(`${API}/index`, { rota_robots_id: robot });
    expect(listed.body.data.map((x: any) => x.name)).toContain('Once');

    // The audit record names the trigger, never its token or hash.
    const records = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entity, 'trigger'), eq(auditLogs.action, 'create')));
    const text = JSON.stringify(records);
    expect(text).toContain('Once');
    expect(text).not.toContain(trigger.token);
    expect(text).not.toContain(row!.token_hash);
  });

  it('refuses a duplicate name per robot (409) and another client’s robot (field error)', async () => {
    await newTrigger('Dup');
    const again = await admin.post(`${API}/create`, { rota_robots_id: robot, name: 'dup' });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([
      { field: 'name', message: 'This robot already has a trigger with this name' },
    ]);
    const missing = await admin.post(`${API}/create`, { rota_robots_id: 999_999, name: 'X' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('rota_robots_id');
  });

  it('creates the tasks and queues one run, in one go', async () => {
    const trigger = await newTrigger('Main');
    const res = await fire(trigger.token, {
      tasks: [{ label: 'a' }, { label: 'b', priority: 7 }],
      priority: 9,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { execution_id, task_ids } = res.body.data;
    expect(task_ids).toHaveLength(2);
    const [run] = await executionsOf([execution_id]);
    expect(run).toMatchObject({ trigger: 'api', priority: 9, rota_robots_id: robot });
    const tasks = await t.db
      .select()
      .from(rotaTasks)
      .where(inArray(rotaTasks.rota_tasks_id, task_ids));
    expect(tasks.map((x) => x.label).sort()).toEqual(['a', 'b']);
    // Thirty days by default.
    const days = (tasks[0]!.expiration_date.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThanOrEqual(30);

    const shown = await admin.post(`${API}/show`, { id: trigger.rota_triggers_id });
    expect(shown.body.data.last_fired_at).not.toBeNull();
    const [record] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entity, 'trigger'), eq(auditLogs.action, 'run')));
    expect(record!.user_name).toBe('trigger:Main');
    expect(record!.users_id).toBeNull();
    expect(JSON.stringify(record)).not.toContain(trigger.token);
  });

  it('answers a repeated Idempotency-Key with the first answer and creates nothing', async () => {
    const trigger = await newTrigger('Idem');
    const body = { tasks: [{ label: 'once' }] };
    const first = await fire(trigger.token, body, { 'idempotency-key': 'order-42' });
    const second = await fire(trigger.token, body, { 'idempotency-key': 'order-42' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    const runs = await t.db
      .select()
      .from(rotaExecutions)
      .where(eq(rotaExecutions.rota_executions_id, first.body.data.execution_id));
    expect(runs).toHaveLength(1);
    const labelled = await t.db.select().from(rotaTasks).where(eq(rotaTasks.label, 'once'));
    expect(labelled).toHaveLength(1);

    const other = await fire(trigger.token, body, { 'idempotency-key': 'order-43' });
    expect(other.status).toBe(201);
    expect(other.body.data.execution_id).not.toBe(first.body.data.execution_id);

    // A key older than 24 hours is a new fire.
    await t.db
      .update(rotaTriggerFires)
      .set({ created_at: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(rotaTriggerFires.idempotency_key, 'order-42'));
    const later = await fire(trigger.token, body, { 'idempotency-key': 'order-42' });
    expect(later.status).toBe(201);
    expect(later.body.data.execution_id).not.toBe(first.body.data.execution_id);
  });

  it('answers concurrent fires with one key once (one run, the same body)', async () => {
    const trigger = await newTrigger('Racing');
    const apiRuns = async () =>
      (await t.db.select().from(rotaExecutions).where(eq(rotaExecutions.trigger, 'api'))).length;
    const before = await apiRuns();
    const headers = { 'idempotency-key': 'race-1' };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => fire(trigger.token, { tasks: [{ label: 'race' }] }, headers)),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    for (const a of answers) expect(a.body).toEqual(answers[0]!.body);
    expect(await apiRuns()).toBe(before + 1);
    const raced = await t.db.select().from(rotaTasks).where(eq(rotaTasks.label, 'race'));
    expect(raced).toHaveLength(1);
  });

  it('refuses a malformed Idempotency-Key (400)', async () => {
    const trigger = await newTrigger('Bad key');
    for (const key of ['has space', 'x'.repeat(201)]) {
      const res = await fire(trigger.token, {}, { 'idempotency-key': key });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        {
          field: 'Idempotency-Key',
          message: 'Idempotency-Key must have 1 to 200 visible characters',
        },
      ]);
    }
  });

  it('refuses an unknown, revoked or rotated-out token (401)', async () => {
    const trigger = await newTrigger('Rotating');
    expect((await fire('rota_trg_nope')).status).toBe(401);
    expect((await fire('not-a-trigger-token')).status).toBe(401);
    const rotated = await admin.post(`${API}/rotate`, { id: trigger.rota_triggers_id });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.token).not.toBe(trigger.token);
    const old = await fire(trigger.token);
    expect(old.status).toBe(401);
    expect(old.body.message).toBe('The trigger token is not valid or was revoked');
    expect((await fire(rotated.body.data.token)).status).toBe(201);

    const revoked = await admin.post(`${API}/revoke`, { id: trigger.rota_triggers_id });
    expect(revoked.status).toBe(200);
    expect((await fire(rotated.body.data.token)).status).toBe(401);
  });

  it('answers 429 with Retry-After beyond 60 fires a minute', async () => {
    const trigger = await newTrigger('Busy');
    // The window already holds 60 fires (firing them one by one only slows the test down).
    await t.db.insert(rateLimits).values({
      key: `trigger-fire:${trigger.rota_triggers_id}`,
      count: 60,
      window_start: new Date(),
    });
    const res = await fire(trigger.token);
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Another trigger is not held back.
    expect((await fire((await newTrigger('Calm')).token)).status).toBe(201);
  });

  it('refuses another client’s VM and bad input with field errors', async () => {
    const trigger = await newTrigger('Strict');
    const vm = await fire(trigger.token, { rota_vms_id: foreignVm });
    expect(vm.status).toBe(400);
    expect(vm.body.errors[0].field).toBe('rota_vms_id');

    const nul = await fire(trigger.token, { tasks: [{ label: 'a\u0000b' }] });
    expect(nul.status).toBe(400);
    const huge = await fire(trigger.token, { priority: 1e300 });
    expect(huge.status).toBe(400);
    expect(huge.body.errors[0].field).toBe('priority');
    const many = await fire(trigger.token, { tasks: Array.from({ length: 101 }, () => ({})) });
    expect(many.status).toBe(400);
    expect(many.body.errors[0].field).toBe('tasks');
    const past = await fire(trigger.token, { tasks: [{ expiration_date: '2000-01-01' }] });
    expect(past.status).toBe(400);
    expect(past.body.errors[0].field).toBe('tasks.0.expiration_date');
    // Nothing of the refused fires was created.
    const shown = await admin.post(`${API}/show`, { id: trigger.rota_triggers_id });
    expect(shown.body.data.last_fired_at).toBeNull();
  });

  it('keeps to the robots of the caller’s teams', async () => {
    const hidden = await newTrigger('Hidden');
    const def = await findClient(t.db, 'Default');
    const seen = await admin.post('/api/rota/robot/api/v1/create', {
      name: 'Team robot',
      executor: 'node main.js',
    });
    const profile = await createProfile(t.db, def.rota_clients_id, 'Trigger team', [
      'ROBOS.LIST',
      'ROBOS.UPDATE',
    ]);
    const user = await createUser(t.db, {
      access: 'trigger.team',
      password: 'team-password',
      memberships: [{ clientId: def.rota_clients_id, profileId: profile.profiles_id }],
    });
    const [team] = await t.db
      .insert(teams)
      .values({ rota_clients_id: def.rota_clients_id, name: 'Trigger team' })
      .returning();
    await t.db.insert(teamRobots).values({
      rota_clients_id: def.rota_clients_id,
      teams_id: team!.teams_id,
      rota_robots_id: seen.body.data.rota_robots_id,
    });
    await t.db.insert(teamUsers).values({
      rota_clients_id: def.rota_clients_id,
      teams_id: team!.teams_id,
      users_id: user.users_id,
    });
    const member = client(t.app, {
      token: await signIn(t.app, 'trigger.team', 'team-password'),
      lang: 'en',
    });
    const refused = await member.post(`${API}/create`, { rota_robots_id: robot, name: 'No' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('rota_robots_id');
    expect((await member.post(`${API}/show`, { id: hidden.rota_triggers_id })).status).toBe(404);
    const made = await member.post(`${API}/create`, {
      rota_robots_id: seen.body.data.rota_robots_id,
      name: 'Mine',
    });
    expect(made.status).toBe(201);
    const listed = await member.post(`${API}/index`, {});
    expect(listed.body.data.map((x: any) => x.name)).toEqual(['Mine']);
  });

  it('renames and deletes; a deleted trigger’s token stops working', async () => {
    const trigger = await newTrigger('Short-lived');
    const renamed = await admin.put(`${API}/update`, {
      id: trigger.rota_triggers_id,
      name: 'Renamed',
    });
    expect(renamed.status).toBe(204);
    const deleted = await admin.post(`${API}/delete`, { id: trigger.rota_triggers_id });
    expect(deleted.status).toBe(202);
    expect((await fire(trigger.token)).status).toBe(401);

    // A deleted robot takes its triggers along.
    const doomed = await admin.post('/api/rota/robot/api/v1/create', {
      name: 'Doomed robot',
      executor: 'node main.js',
    });
    const id = doomed.body.data.rota_robots_id;
    const made = await admin.post(`${API}/create`, { rota_robots_id: id, name: 'Orphan' });
    expect((await admin.post('/api/rota/robot/api/v1/delete', { id })).status).toBe(202);
    expect((await fire(made.body.data.token)).status).toBe(401);
  });
});
