import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, type Permission } from '@rota/contract';
import {
  accessRequests,
  profiles,
  rotaEnvironments,
  rotaStatusItems,
  teamRobots,
  teams,
  teamUsers,
  userClients,
} from '../src/db/schema/index.js';
import { provisionClient } from '../src/modules/clients/provision-client.js';
import { ENDPOINTS, LISTS_NOTHING, type Endpoint, type Rows } from './helpers/endpoint-table.js';
import { createProfile, createUser, findClient } from './helpers/fixtures.js';
import { multipart } from './helpers/multipart.js';
import { robotPackage } from './helpers/robot-package.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

/**
 * The permission matrix, driven by one table (helpers/endpoint-table.ts): every endpoint
 * refuses a caller without a session, a user lacking exactly its permission, and answers the
 * other client's rows as absent. A route missing from the table fails the first test.
 */

type Caller = ReturnType<typeof client>;

let t: TestApp;
let admin: Caller;
let probe: Caller;
let probeProfileId: number;
let own: Rows;
let foreign: Rows;

async function makeRows(as: Caller, clientId: number, tag: string): Promise<Rows> {
  const ok = <T>(res: { status: number; body: T }, status = 201) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body as any;
  };
  const robot = ok(
    await as.post('/api/rota/robot/api/v1/create', {
      name: `Robot ${tag}`,
      executor: 'node main.js',
    }),
  ).data.rota_robots_id as number;
  const form = multipart(
    { rota_robots_id: robot, version: '1.0.0' },
    { name: 'robot.tar.gz', data: robotPackage() },
  );
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/rota/robot/version/api/v1/create',
    payload: form.payload,
    headers: { 'content-type': form.contentType, authorization: as.authorization },
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const versionData = JSON.parse(uploaded.body).data;
  const field = ok(
    await as.post('/api/rota/robot/field/api/v1/create', {
      rota_robots_id: robot,
      name: 'f',
      label: 'F',
    }),
  ).data.rota_robot_fields_id as number;
  const task = ok(
    await as.post('/api/rota/task/api/v1/create', {
      rota_robots_id: robot,
      expiration_date: '2099-01-01',
    }),
  ).data.rota_tasks_id as number;
  const vm = ok(
    await as.post('/api/rota/vm/api/v1/create', { name: `VM ${tag}`, hostname: `vm-${tag}` }),
  ).data.rota_vms_id as number;
  const agent = ok(
    await as.post('/api/rota/node/api/v1/create', { name: `Agent ${tag}`, rota_vms_id: vm }),
  ).data.rota_nodes_id as number;
  const scheduling = ok(
    await as.post('/api/rota/scheduling/api/v1/create', {
      name: `Scheduling ${tag}`,
      rota_robots_id: robot,
      interval_minutes: 60,
      timeout_minutes: 10,
      active: false,
      vms: [vm],
    }),
  ).data.rota_schedulings_id as number;
  const schedulingVm = ok(
    await as.post('/api/rota/scheduling/vms/api/v1/index', { rota_schedulings_id: scheduling }),
    200,
  ).data[0].rota_scheduling_vms_id as number;
  const calendar = ok(
    await as.post('/api/rota/calendar/api/v1/create', { name: `Calendar ${tag}` }),
  ).data.rota_calendars_id as number;
  const parameter = ok(
    await as.post('/api/rota/parameter/api/v1/create', { name: `P_${tag}`, value: 'v' }),
  ).data.rota_parameters_id as number;
  const execution = ok(await as.post('/api/rota/robot/api/v1/run', { id: robot })).data
    .execution_id as number;
  const trigger = ok(
    await as.post('/api/rota/trigger/api/v1/create', {
      rota_robots_id: robot,
      name: `Trigger ${tag}`,
    }),
  ).data.rota_triggers_id as number;

  // Profiles, users and memberships are written straight to the tables, so this table does not
  // lean on the very endpoints it checks.
  const profile = await createProfile(t.db, clientId, `Matrix ${tag}`, []);
  const user = await createUser(t.db, {
    access: `matrix.${tag}`,
    password: 'matrix-password',
    memberships: [{ clientId, profileId: profile.profiles_id }],
  });
  const [membership] = await t.db
    .select()
    .from(userClients)
    .where(eq(userClients.users_id, user.users_id));
  const [environment] = await t.db
    .insert(rotaEnvironments)
    .values({ rota_clients_id: clientId, title: `Env ${tag}` })
    .returning();
  const [team] = await t.db
    .insert(teams)
    .values({ rota_clients_id: clientId, name: `Team ${tag}` })
    .returning();
  const [teamRobot] = await t.db
    .insert(teamRobots)
    .values({ rota_clients_id: clientId, teams_id: team!.teams_id, rota_robots_id: robot })
    .returning();
  const [teamUser] = await t.db
    .insert(teamUsers)
    .values({ rota_clients_id: clientId, teams_id: team!.teams_id, users_id: user.users_id })
    .returning();
  const [statusItem] = await t.db
    .select()
    .from(rotaStatusItems)
    .where(eq(rotaStatusItems.rota_clients_id, clientId));
  const alert = ok(
    await as.post('/api/rota/alert/api/v1/create', {
      name: `Alert ${tag}`,
      events: ['execution.application_error'],
      channel: { type: 'email', to: [`alert.${tag}@example.com`] },
    }),
  ).data.rota_alerts_id as number;
  const logStream = ok(
    await as.post('/api/rota/log-stream/api/v1/create', {
      name: `Stream ${tag}`,
      transport: 'tcp',
      host: 'siem.example.com',
      port: 6514,
      events: ['audit'],
    }),
  ).data.rota_log_streams_id as number;
  const [accessRequest] = await t.db
    .insert(accessRequests)
    .values({ name: `Req ${tag}`, email: `req.${tag}@example.com`, client_name: tag })
    .returning();
  return {
    client: clientId,
    robot,
    version: versionData.rota_robot_versions_id,
    versionSha: versionData.sha256,
    package: versionData.rota_packages_id,
    packageKey: ok(
      await as.post('/api/rota/package/key/api/v1/create', {
        name: `Key ${tag}`,
        public_key: generateKeyPairSync('ed25519')
          .publicKey.export({ type: 'spki', format: 'pem' })
          .toString(),
      }),
    ).data.rota_package_keys_id as number,
    field,
    task,
    vm,
    agent,
    scheduling,
    schedulingVm,
    calendar,
    parameter,
    execution,
    profile: profile.profiles_id,
    user: user.users_id,
    userClient: membership!.user_clients_id,
    environment: environment!.rota_environments_id,
    team: team!.teams_id,
    teamRobot: teamRobot!.team_robots_id,
    teamUser: teamUser!.team_users_id,
    statusItem: statusItem!.rota_status_items_id,
    accessRequest: accessRequest!.access_requests_id,
    alert,
    logStream,
    trigger,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  const adminToken = await signIn(t.app, ADMIN.access, ADMIN.password);
  admin = client(t.app, { token: adminToken, lang: 'en' });

  const other = await provisionClient(t.db, 'Matrix other');
  await createUser(t.db, {
    access: 'matrix.other.admin',
    password: 'other-password',
    memberships: [{ clientId: other.client.rota_clients_id, profileId: other.profile.profiles_id }],
  });
  const otherAdmin = client(t.app, {
    token: await signIn(t.app, 'matrix.other.admin', 'other-password'),
    lang: 'en',
  });

  const def = await findClient(t.db, 'Default');
  own = await makeRows(admin, def.rota_clients_id, 'own');
  foreign = await makeRows(otherAdmin, other.client.rota_clients_id, 'foreign');

  const probeProfile = await createProfile(t.db, def.rota_clients_id, 'Probe', []);
  probeProfileId = probeProfile.profiles_id;
  await createUser(t.db, {
    access: 'matrix.probe',
    password: 'probe-password',
    memberships: [{ clientId: def.rota_clients_id, profileId: probeProfileId }],
  });
  probe = client(t.app, {
    token: await signIn(t.app, 'matrix.probe', 'probe-password'),
    lang: 'en',
  });
}, 120_000);
afterAll(() => t.close());

function split(key: string) {
  const [method, path] = key.split(' ') as ['GET' | 'POST' | 'PUT', string];
  return { method, path };
}

function call(as: Caller, key: string, endpoint: Endpoint, rows: Rows) {
  const { method, path } = split(key);
  const url = path
    .replace('{sha256}', rows.versionSha)
    .replace('{file}', 'none.png')
    .replace('{platform}', 'linux-x64');
  const body = endpoint.body ? endpoint.body(rows) : {};
  if (method === 'GET') {
    const query = new URLSearchParams(body as Record<string, string>).toString();
    return as.get(query ? `${url}?${query}` : url);
  }
  return method === 'PUT' ? as.put(url, body) : as.post(url, body);
}

/** The probe's profile holds the whole catalogue but `missing`; it applies at the next request. */
async function withoutPermission(missing: Permission) {
  await t.db
    .update(profiles)
    .set({ permissions: PERMISSIONS.filter((p) => p !== missing) })
    .where(eq(profiles.profiles_id, probeProfileId));
}

async function withEveryPermission() {
  await t.db
    .update(profiles)
    .set({ permissions: [...PERMISSIONS] })
    .where(eq(profiles.profiles_id, probeProfileId));
}

const entries = Object.entries(ENDPOINTS);
const guarded = entries.filter(([, e]) => e.guard !== 'public');
const byPermission = entries.filter(([, e]) => e.guard.includes('.'));
const platformOnly = entries.filter(([, e]) => e.guard === 'platform_admin');
const tokenOnly = entries.filter(
  ([, e]) => e.guard === 'agent' || e.guard === 'run' || e.guard === 'trigger',
);
const scoped = entries.filter(([, e]) => typeof e.foreign === 'number');
const filtered = entries.filter(([, e]) => e.foreign === LISTS_NOTHING);

describe('permission matrix', () => {
  it('lists every route of the API, and only those', () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(
      documented.filter((k) => !(k in ENDPOINTS)),
      'routes missing from the table',
    ).toEqual([]);
    expect(
      Object.keys(ENDPOINTS).filter((k) => !documented.includes(k)),
      'table entries with no route',
    ).toEqual([]);
  });

  it.each(guarded)('%s refuses a caller without a token (401)', async (key, endpoint) => {
    const res = await call(client(t.app), key, endpoint, own);
    expect(res.status).toBe(401);
  });

  it.each(byPermission)('%s needs its permission (403 without it)', async (key, endpoint) => {
    await withoutPermission(endpoint.guard as Permission);
    const res = await call(probe, key, endpoint, own);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.message).toBe('You do not have authorization!');
  });

  it.each(platformOnly)('%s is for platform administrators only (403)', async (key, endpoint) => {
    await withEveryPermission();
    const res = await call(probe, key, endpoint, own);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
  });

  it.each(tokenOnly)('%s does not take a user session (401)', async (key, endpoint) => {
    const res = await call(admin, key, endpoint, own);
    expect(res.status).toBe(401);
  });

  // A client administrator, not a platform one: platform administrators may reach every client.
  it.each(scoped)('%s answers another client’s rows as absent', async (key, endpoint) => {
    await withEveryPermission();
    const res = await call(probe, key, endpoint, foreign);
    expect(res.status, JSON.stringify(res.body)).toBe(endpoint.foreign);
  });

  it.each(filtered)('%s filtered by another client’s row lists nothing', async (key, endpoint) => {
    await withEveryPermission();
    const res = await call(probe, key, endpoint, foreign);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});
