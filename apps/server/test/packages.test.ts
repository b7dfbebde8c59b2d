import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zip } from './helpers/archives.js';
import { multipart, type FilePart } from './helpers/multipart.js';
import { createRobot } from './helpers/robots.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

const P = '/api/rota/package/api/v1';
const V = '/api/rota/robot/version/api/v1';
const ROBOTS = '/api/rota/robot/api/v1';
let t: TestApp;
let c: Tenants;
const tokens = { admin: '', other: '', limited: '' };

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
  const suffix = c.otherClientId;
  tokens.admin = await signIn(t.app, ADMIN.access, ADMIN.password);
  tokens.other = await signIn(t.app, `other${suffix}`, 'other-password');
  tokens.limited = await signIn(t.app, `limited${suffix}`, 'limited-password');
});
afterAll(() => t.close());

async function post(
  url: string,
  fields: Record<string, string | number>,
  file?: FilePart,
  options: { token?: string; lang?: 'en' | 'pt' } = {},
) {
  const { payload, contentType } = multipart(fields, file);
  const response = await t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: {
      'content-type': contentType,
      authorization: `Bearer ${options.token ?? tokens.admin}`,
      'accept-language': options.lang ?? 'en',
    },
  });
  return { status: response.statusCode, body: response.json() };
}

const pkg = (n: number) => ({
  name: `robot-${n}.zip`,
  data: zip([{ name: 'main.js', data: `v${n}` }]),
});

async function createPackage(name: string): Promise<number> {
  const res = await c.admin.post(`${P}/create`, { name, description: 'Invoices' });
  expect(res.status).toBe(201);
  return res.body.data.rota_packages_id as number;
}

async function uploadTo(packageId: number, version: string, n: number, token?: string) {
  return post(`${P}/version/create`, { rota_packages_id: packageId, version }, pkg(n), { token });
}

const robotShown = async (id: number) => (await c.admin.post(`${ROBOTS}/show`, { id })).body.data;

describe('package feed', () => {
  it('creates, lists, shows, renames and deletes a package, with field errors in pt and en', async () => {
    const id = await createPackage('Invoice bot');
    const shown = await c.admin.post(`${P}/show`, { id });
    expect(shown.body.data).toMatchObject({
      rota_packages_id: id,
      name: 'Invoice bot',
      description: 'Invoices',
      versions: 0,
      latest_version: null,
      robots: 0,
    });
    const list = await c.admin.post(`${P}/index`, { search: 'invoice' });
    expect(list.body.data.map((p: { name: string }) => p.name)).toContain('Invoice bot');

    const twice = await c.admin.post(`${P}/create`, { name: 'INVOICE BOT' });
    expect(twice.status).toBe(409);
    expect(twice.body.errors).toEqual([
      { field: 'name', message: 'A package with this name already exists' },
    ]);
    const pt = client(t.app, { token: tokens.admin, lang: 'pt' });
    const blank = await pt.post(`${P}/create`, { name: ' ' });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual([{ field: 'name', message: 'Nome obrigatório' }]);

    expect((await c.admin.put(`${P}/update`, { id, name: 'Invoices' })).status).toBe(204);
    expect((await c.admin.post(`${P}/show`, { id })).body.data.name).toBe('Invoices');
    expect((await c.admin.post(`${P}/delete`, { id })).status).toBe(202);
    expect((await c.admin.post(`${P}/show`, { id })).status).toBe(404);
  });

  it('uploads a version once and runs it on two robots, one pinned and one following latest', async () => {
    const id = await createPackage('Shared package');
    const first = await uploadTo(id, '1.0.0', 1);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      rota_packages_id: id,
      rota_robots_id: null,
      version: '1.0.0',
      current: false,
    });
    const v1 = first.body.data.rota_robot_versions_id as number;
    const pinned = await createRobot(c.admin, 'Pinned feed robot');
    const follower = await createRobot(c.admin, 'Following feed robot');
    const point = (robot: number, version: number | null) =>
      c.admin.put(`${P}/robot`, {
        id: robot,
        rota_packages_id: id,
        rota_robot_versions_id: version,
      });
    expect((await point(pinned, v1)).status).toBe(204);
    expect((await point(follower, null)).status).toBe(204);
    expect(await robotShown(pinned)).toMatchObject({
      rota_packages_id: id,
      follow_latest: false,
      current_version: { rota_robot_versions_id: v1, version: '1.0.0' },
    });
    expect((await robotShown(follower)).follow_latest).toBe(true);

    const second = await uploadTo(id, '1.1.0', 2);
    const v2 = second.body.data.rota_robot_versions_id as number;
    expect((await robotShown(follower)).current_version.rota_robot_versions_id).toBe(v2);
    expect((await robotShown(pinned)).current_version.rota_robot_versions_id).toBe(v1);
    // Both robots list the package's versions; `current` is about the robot listed.
    const ofPinned = await c.admin.post(`${V}/index`, { rota_robots_id: pinned });
    expect(
      ofPinned.body.data.map((v: { version: string; current: boolean }) => [v.version, v.current]),
    ).toEqual([
      ['1.1.0', false],
      ['1.0.0', true],
    ]);
    const shown = await c.admin.post(`${P}/show`, { id });
    expect(shown.body.data).toMatchObject({
      versions: 2,
      robots: 2,
      latest_version: { rota_robot_versions_id: v2, version: '1.1.0' },
    });
    // A version a robot runs stays, and so does the package.
    const del = await c.admin.post(`${V}/delete`, { id: v1 });
    expect(del.status).toBe(409);
    const delPackage = await c.admin.post(`${P}/delete`, { id });
    expect(delPackage.body.errors).toEqual([
      { field: 'id', message: 'Robots still run this package; point them at another one first' },
    ]);

    const duplicate = await uploadTo(id, '1.1.0', 3);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errors).toEqual([
      { field: 'version', message: 'This package already has this version' },
    ]);
  });

  it('moves chosen robots to the newest version in one call', async () => {
    const id = await createPackage('Bulk package');
    const none = await c.admin.post(`${P}/update-robots`, { rota_packages_id: id, ids: [1] });
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual([
      { field: 'rota_packages_id', message: 'This package has no approved version yet' },
    ]);
    const v1 = (await uploadTo(id, '1', 11)).body.data.rota_robot_versions_id as number;
    const a = await createRobot(c.admin, 'Bulk robot A');
    const b = await createRobot(c.admin, 'Bulk robot B');
    for (const robot of [a, b]) {
      await c.admin.put(`${P}/robot`, {
        id: robot,
        rota_packages_id: id,
        rota_robot_versions_id: v1,
      });
    }
    const v2 = (await uploadTo(id, '2', 12)).body.data.rota_robot_versions_id as number;
    const moved = await c.admin.post(`${P}/update-robots`, { rota_packages_id: id, ids: [a, b] });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({
      message: '2 robot(s) now run the newest version',
      rota_robot_versions_id: v2,
      updated: 2,
    });
    for (const robot of [a, b]) {
      expect((await robotShown(robot)).current_version.rota_robot_versions_id).toBe(v2);
    }
    const audit = await c.admin.post('/api/rota/audit/api/v1/index', { entity: 'robot' });
    expect(audit.status).toBe(200);
    // One robot of another client in the list: nothing moves.
    const theirs = await createRobot(c.other, 'Their bulk robot');
    const mixed = await c.admin.post(`${P}/update-robots`, {
      rota_packages_id: id,
      ids: [a, theirs],
    });
    expect(mixed.status).toBe(404);
    const bad = await c.admin.post(`${P}/update-robots`, { rota_packages_id: id, ids: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'ids', message: 'Invalid value' }]);
  });

  it('refuses a version of another package and keeps the per-robot upload as a short path', async () => {
    const id = await createPackage('Pointer package');
    const other = await createPackage('Pointer other package');
    const foreign = (await uploadTo(other, '1', 21)).body.data.rota_robot_versions_id as number;
    const robot = await createRobot(c.admin, 'Pointer robot');
    const pt = client(t.app, { token: tokens.admin, lang: 'pt' });
    const body = { id: robot, rota_packages_id: id, rota_robot_versions_id: foreign };
    const wrong = await pt.put(`${P}/robot`, body);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([
      { field: 'rota_robot_versions_id', message: 'Esta versão não é do pacote' },
    ]);

    // The robot's own upload makes its package (named after it) on the first version.
    const own = await createRobot(c.admin, 'Short path robot');
    const up = await post(`${V}/create`, { rota_robots_id: own, version: '1' }, pkg(22));
    expect(up.status).toBe(201);
    const packageId = up.body.data.rota_packages_id as number;
    expect(up.body.data.rota_robots_id).toBe(own);
    expect((await robotShown(own)).rota_packages_id).toBe(packageId);
    expect((await c.admin.post(`${P}/show`, { id: packageId })).body.data.name).toBe(
      'Short path robot',
    );
    const again = await post(`${V}/create`, { rota_robots_id: own, version: '2' }, pkg(23));
    expect(again.body.data.rota_packages_id).toBe(packageId);
  });

  it('checks permissions and keeps clients apart on every call', async () => {
    const id = await createPackage('Guarded package');
    const v1 = (await uploadTo(id, '1', 31)).body.data.rota_robot_versions_id as number;
    expect((await c.limited.post(`${P}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${P}/version/index`, { rota_packages_id: id })).status).toBe(200);
    expect((await c.limited.post(`${P}/create`, { name: 'No' })).status).toBe(403);
    expect((await c.limited.post(`${P}/delete`, { id })).status).toBe(403);
    expect((await uploadTo(id, '2', 32, tokens.limited)).status).toBe(403);
    const robot = await createRobot(c.admin, 'Guarded robot');
    const body = { id: robot, rota_packages_id: id, rota_robot_versions_id: v1 };
    expect((await c.limited.put(`${P}/robot`, body)).status).toBe(403);
    expect(
      (await c.limited.post(`${P}/update-robots`, { rota_packages_id: id, ids: [robot] })).status,
    ).toBe(403);

    expect((await c.other.post(`${P}/show`, { id })).status).toBe(404);
    expect((await c.other.post(`${P}/delete`, { id })).status).toBe(404);
    expect((await c.other.put(`${P}/update`, { id, name: 'Mine' })).status).toBe(404);
    expect((await c.other.post(`${P}/version/index`, { rota_packages_id: id })).status).toBe(404);
    expect((await uploadTo(id, '3', 33, tokens.other)).status).toBe(404);
    const theirRobot = await createRobot(c.other, 'Other pointing robot');
    const steal = { id: theirRobot, rota_packages_id: id, rota_robot_versions_id: v1 };
    expect((await c.other.put(`${P}/robot`, steal)).status).toBe(404);
    expect(
      (await c.other.post(`${P}/index`, {})).body.data.map((p: { name: string }) => p.name),
    ).not.toContain('Guarded package');
    const noPackage = await post(`${P}/version/create`, { version: '1' }, pkg(34));
    expect(noPackage.status).toBe(400);
    expect(noPackage.body.errors).toEqual([
      { field: 'rota_packages_id', message: 'Required package' },
    ]);
  });
});
