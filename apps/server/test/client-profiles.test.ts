import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENTS, PROFILES, clientWithAdmin } from './helpers/administration.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

let t: TestApp;
let c: Tenants;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['USUARIOS.LIST'] });
});
afterAll(() => t.close());

describe("a client's profiles (platform administrators)", () => {
  it('lists the profiles of any client by name, not only the selected one', async () => {
    const acme = await clientWithAdmin(t);
    const created = await acme.as.post(`${PROFILES}/create`, {
      name: 'Auditors',
      permissions: ['HISTORIC.LIST'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const res = await c.admin.post(`${CLIENTS}/profiles`, { id: acme.clientId });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { profiles_id: acme.adminProfileId, name: 'Administrator' },
      { profiles_id: created.body.data.profiles_id, name: 'Auditors' },
    ]);
  });

  it('answers 404 for an unknown client and 403 to anyone else', async () => {
    expect((await c.admin.post(`${CLIENTS}/profiles`, { id: 999_999 })).status).toBe(404);
    const acme = await clientWithAdmin(t);
    expect((await acme.as.post(`${CLIENTS}/profiles`, { id: acme.clientId })).status).toBe(403);
  });
});
