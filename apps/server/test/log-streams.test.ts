import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, rotaLogStreams } from '../src/db/schema/index.js';
import { createProfile, createUser } from './helpers/fixtures.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

const STREAMS = '/api/rota/log-stream/api/v1';
const CA = '-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----';

let t: TestApp;
let c: Tenants;
/** The administrator of the other client, who may manage that client's streams. */
let otherAdmin: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['USUARIOS.LIST'] });
  const profile = await createProfile(t.db, c.otherClientId, 'Stream admins', [
    'USUARIOS.LIST',
    'USUARIOS.CREATE',
    'USUARIOS.UPDATE',
    'USUARIOS.DELETE',
  ]);
  await createUser(t.db, {
    access: 'otherstreams',
    password: 'other-streams-1',
    memberships: [{ clientId: c.otherClientId, profileId: profile.profiles_id }],
  });
  otherAdmin = client(t.app, { token: await signIn(t.app, 'otherstreams', 'other-streams-1') });
});
afterAll(async () => {
  await t?.close();
});

const body = (over: object = {}) => ({
  name: `SIEM ${Math.random().toString(36).slice(2, 8)}`,
  transport: 'tls',
  host: 'siem.example.com',
  port: 6514,
  events: ['audit', 'execution'],
  ca_certificate: CA,
  ...over,
});

describe('log stream endpoints', () => {
  it('create, show, list, update, delete, with the CA sealed at rest and never answered', async () => {
    const created = await c.admin.post(`${STREAMS}/create`, body({ name: 'Splunk' }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.rota_log_streams_id as number;
    expect(created.body.data).toMatchObject({
      name: 'Splunk',
      transport: 'tls',
      host: 'siem.example.com',
      port: 6514,
      events: ['audit', 'execution'],
      active: true,
      ca_certificate_set: true,
      pending: 0,
      failed: 0,
    });
    expect(JSON.stringify(created.body)).not.toContain('BEGIN CERTIFICATE');
    const [stored] = await t.db
      .select()
      .from(rotaLogStreams)
      .where(eq(rotaLogStreams.rota_log_streams_id, id));
    expect(stored!.ca_certificate).toMatch(/^v1:/);
    expect(stored!.ca_certificate).not.toContain('CERTIFICATE');

    const shown = await c.admin.post(`${STREAMS}/show`, { id });
    expect(shown.body.data.name).toBe('Splunk');
    const list = await c.admin.post(`${STREAMS}/index`, { search: 'splunk' });
    expect(
      list.body.data.map((s: { rota_log_streams_id: number }) => s.rota_log_streams_id),
    ).toContain(id);

    // Left out, the certificate stays; switching to TCP drops it.
    expect((await c.admin.put(`${STREAMS}/update`, { id, port: 6515 })).status).toBe(204);
    expect((await c.admin.post(`${STREAMS}/show`, { id })).body.data).toMatchObject({
      port: 6515,
      ca_certificate_set: true,
    });
    expect((await c.admin.put(`${STREAMS}/update`, { id, transport: 'tcp' })).status).toBe(204);
    expect((await c.admin.post(`${STREAMS}/show`, { id })).body.data).toMatchObject({
      transport: 'tcp',
      ca_certificate_set: false,
    });

    // Every change has its audit record, without the certificate.
    const records = await t.db.select().from(auditLogs).where(eq(auditLogs.entity, 'log_stream'));
    expect(records.map((r) => r.action)).toEqual(['create', 'update', 'update']);
    expect(JSON.stringify(records)).not.toContain('BEGIN CERTIFICATE');

    expect((await c.admin.post(`${STREAMS}/delete`, { id })).status).toBe(202);
    expect((await c.admin.post(`${STREAMS}/show`, { id })).status).toBe(404);
  });

  it('answers bad input with field errors, in English and Portuguese', async () => {
    const bad = await c.admin.post(
      `${STREAMS}/create`,
      body({ name: '', host: 'not a host', port: 70000, events: [], transport: 'udp' }),
    );
    expect(bad.status).toBe(400);
    const fields = Object.fromEntries(
      (bad.body.errors as { field: string; message: string }[]).map((e) => [e.field, e.message]),
    );
    expect(fields).toMatchObject({
      name: 'Required name',
      host: 'Must be a host name or an IP address',
      port: 'Must be a port from 1 to 65535',
      events: 'Choose at least one event',
      transport: 'Invalid value',
    });
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    const ptBad = await pt.post(`${STREAMS}/create`, body({ port: 0 }));
    expect(ptBad.body.errors).toEqual([
      { field: 'port', message: 'Deve ser uma porta de 1 a 65535' },
    ]);
    const tcpWithCa = await c.admin.post(`${STREAMS}/create`, body({ transport: 'tcp' }));
    expect(tcpWithCa.body.errors).toEqual([
      { field: 'ca_certificate', message: 'A CA certificate is used only with TLS' },
    ]);
    const notPem = await c.admin.post(`${STREAMS}/create`, body({ ca_certificate: 'hello' }));
    expect(notPem.body.errors[0].field).toBe('ca_certificate');
    const name = `Twice ${Math.random()}`;
    expect((await c.admin.post(`${STREAMS}/create`, body({ name }))).status).toBe(201);
    const twice = await c.admin.post(`${STREAMS}/create`, body({ name: name.toUpperCase() }));
    expect(twice.status).toBe(409);
    expect(twice.body.errors).toEqual([
      { field: 'name', message: 'A log stream with this name already exists' },
    ]);
  });

  it('refuses a cloud metadata address whatever the allowed networks say', async () => {
    const res = await c.admin.post(`${STREAMS}/create`, body({ host: '169.254.169.254' }));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('host');
    const id = (await c.admin.post(`${STREAMS}/create`, body())).body.data.rota_log_streams_id;
    const moved = await c.admin.put(`${STREAMS}/update`, { id, host: 'metadata.google.internal' });
    expect(moved.status).toBe(400);
  });

  it('checks the USUARIOS permissions on the server', async () => {
    const id = (await c.admin.post(`${STREAMS}/create`, body())).body.data.rota_log_streams_id;
    // The limited member holds USUARIOS.LIST only.
    expect((await c.limited.post(`${STREAMS}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${STREAMS}/create`, body())).status).toBe(403);
    expect((await c.limited.put(`${STREAMS}/update`, { id, port: 1 })).status).toBe(403);
    expect((await c.limited.post(`${STREAMS}/delete`, { id })).status).toBe(403);
    expect((await c.limited.post(`${STREAMS}/test`, { id })).status).toBe(403);
    expect((await client(t.app).post(`${STREAMS}/index`, {})).status).toBe(401);
  });

  it('keeps each client to its own streams', async () => {
    const id = (await c.admin.post(`${STREAMS}/create`, body())).body.data.rota_log_streams_id;
    const theirs = await otherAdmin.post(`${STREAMS}/index`, {});
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
    expect((await otherAdmin.post(`${STREAMS}/show`, { id })).status).toBe(404);
    expect((await otherAdmin.put(`${STREAMS}/update`, { id, port: 1 })).status).toBe(404);
    expect((await otherAdmin.post(`${STREAMS}/delete`, { id })).status).toBe(404);
    expect((await otherAdmin.post(`${STREAMS}/test`, { id })).status).toBe(404);
    expect((await c.admin.post(`${STREAMS}/show`, { id })).body.data.port).toBe(6514);
  });
});
