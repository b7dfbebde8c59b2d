import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPackage } from '@rota/archive-check';
import { zip } from './helpers/archives.js';
import { multipart } from './helpers/multipart.js';
import { createProfile, createUser } from './helpers/fixtures.js';
import { client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createAgent, createVm } from './helpers/vms.js';

const P = '/api/rota/package/api/v1';
const K = '/api/rota/package/key/api/v1';
let t: TestApp;
let c: Tenants;
/** An administrator of the other client who may change its settings. */
let otherAdmin: ReturnType<typeof client>;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST', 'ROBOS.CREATE', 'USUARIOS.LIST'] });
  const profile = await createProfile(t.db, c.otherClientId, 'Key keepers', [
    'USUARIOS.LIST',
    'USUARIOS.CREATE',
    'USUARIOS.DELETE',
  ]);
  await createUser(t.db, {
    access: 'keykeeper',
    password: 'keykeeper-password',
    memberships: [{ clientId: c.otherClientId, profileId: profile.profiles_id }],
  });
  otherAdmin = client(t.app, { token: await signIn(t.app, 'keykeeper', 'keykeeper-password') });
});
afterAll(() => t.close());

const keyPair = () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { privateKey, pem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
};
const signer = keyPair();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function upload(
  packageId: number,
  version: string,
  data: Buffer,
  signature?: string,
  lang: 'en' | 'pt' = 'en',
) {
  const fields = { rota_packages_id: packageId, version, ...(signature ? { signature } : {}) };
  const { payload, contentType } = multipart(fields, { name: `${version}.zip`, data });
  const response = await t.app.inject({
    method: 'POST',
    url: `${P}/version/create`,
    payload,
    headers: {
      'content-type': contentType,
      authorization: `Bearer ${c.adminToken}`,
      'accept-language': lang,
    },
  });
  return { status: response.statusCode, body: response.json() };
}

async function createPackage(name: string) {
  const res = await c.admin.post(`${P}/create`, { name });
  expect(res.status).toBe(201);
  return res.body.data.rota_packages_id as number;
}

const requireSigned = async (on: boolean) => {
  const shown = await c.admin.post('/api/rota/client/api/v1/show', { id: c.defaultClientId });
  const res = await c.admin.put('/api/rota/client/api/v1/update', {
    id: c.defaultClientId,
    name: shown.body.data.name,
    require_signed_packages: on,
  });
  expect(res.status).toBe(204);
};

describe('signed packages', () => {
  it('keeps the client’s trusted keys: only Ed25519 public keys, once each, per client', async () => {
    const created = await c.admin.post(`${K}/create`, {
      name: 'Release key',
      public_key: signer.pem,
    });
    expect(created.status).toBe(201);
    const fingerprint = created.body.data.fingerprint as string;
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const twice = await c.admin.post(`${K}/create`, { name: 'Again', public_key: signer.pem });
    expect(twice.status).toBe(409);
    expect(twice.body.errors).toEqual([
      { field: 'public_key', message: 'This key is already trusted' },
    ]);
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    const bad = await pt.post(`${K}/create`, {
      name: 'RSA',
      public_key: rsa.export({ type: 'spki', format: 'pem' }).toString(),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'public_key', message: 'Não é uma chave pública Ed25519 (PEM)' },
    ]);
    const id = created.body.data.rota_package_keys_id as number;
    expect((await c.limited.post(`${K}/index`, {})).status).toBe(200);
    expect(
      (await c.limited.post(`${K}/create`, { name: 'x', public_key: keyPair().pem })).status,
    ).toBe(403);
    expect((await c.limited.post(`${K}/delete`, { id })).status).toBe(403);
    expect((await otherAdmin.post(`${K}/show`, { id })).status).toBe(404);
    expect((await otherAdmin.post(`${K}/delete`, { id })).status).toBe(404);
    // Another client may trust the same key: it is their own list.
    expect(
      (await otherAdmin.post(`${K}/create`, { name: 'Theirs', public_key: signer.pem })).status,
    ).toBe(201);
  });

  it('accepts a signed upload, refuses a tampered or unknown signature, and unsigned ones when required', async () => {
    const id = await createPackage('Signed package');
    const data = zip([{ name: 'main.js', data: 'console.log("signed")' }]);
    const signature = signPackage(sha256(data), signer.privateKey);
    const signed = await upload(id, '1.0.0', data, signature);
    expect(signed.status).toBe(201);
    expect(signed.body.data.signed_by).toMatchObject({ name: 'Release key' });

    // The same signature on other bytes: the package was changed after signing.
    const tampered = zip([{ name: 'main.js', data: 'console.log("evil")' }]);
    const refused = await upload(id, '1.0.1', tampered, signature);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: 'signature', message: 'The signature does not match this package' },
    ]);
    const stranger = signPackage(sha256(tampered), keyPair().privateKey);
    const unknown = await upload(id, '1.0.2', tampered, stranger, 'pt');
    expect(unknown.body.errors).toEqual([
      { field: 'signature', message: 'A assinatura não confere com este pacote' },
    ]);
    const garbage = await upload(id, '1.0.3', tampered, 'not-a-signature');
    expect(garbage.body.errors).toEqual([
      { field: 'signature', message: 'Not a signature (base64 of 64 bytes)' },
    ]);

    const unsigned = zip([{ name: 'main.js', data: 'console.log("unsigned")' }]);
    expect((await upload(id, '2.0.0', unsigned)).status).toBe(201);
    await requireSigned(true);
    try {
      const required = await upload(id, '2.0.1', unsigned);
      expect(required.status).toBe(400);
      expect(required.body.errors).toEqual([
        {
          field: 'signature',
          message: 'This client accepts signed packages only: add the signature',
        },
      ]);
      const good = zip([{ name: 'main.js', data: 'console.log("3")' }]);
      const ok = await upload(id, '3.0.0', good, signPackage(sha256(good), signer.privateKey));
      expect(ok.status).toBe(201);
      const versions = await c.admin.post(`${P}/version/index`, { rota_packages_id: id });
      expect(versions.body.data.map((v: { version: string }) => v.version)).toEqual([
        '3.0.0',
        '2.0.0',
        '1.0.0',
      ]);
    } finally {
      await requireSigned(false);
    }
  });

  it('hands a claim the running version’s signature and key; a robot on latest runs the newest', async () => {
    const id = await createPackage('Claimed package');
    const first = zip([{ name: 'main.js', data: 'console.log("claimed 1")' }]);
    // Ed25519 signatures are deterministic: the claim's must be this very one.
    const v1Signature = signPackage(sha256(first), signer.privateKey);
    expect((await upload(id, '1', first, v1Signature)).status).toBe(201);
    const robot = await createRobot(c.admin, 'Claimed signed robot');
    const point = { id: robot, rota_packages_id: id, rota_robot_versions_id: null };
    expect((await c.admin.put(`${P}/robot`, point)).status).toBe(204);
    const vm = await createVm(c.admin, 'Signed VM');
    const agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Signed agent', vm)).token);
    expect((await agent.hello()).status).toBe(200);

    await runNow(c.admin, { id: robot });
    const run = await agent.claim();
    expect(run?.package).toMatchObject({
      sha256: sha256(first),
      signature: { signature: v1Signature, public_key: signer.pem.trim() },
    });
    expect((await agent.finishRun(run!)).status).toBe(200);

    const second = zip([{ name: 'main.js', data: 'console.log("claimed 2")' }]);
    expect((await upload(id, '2', second)).status).toBe(201);
    await runNow(c.admin, { id: robot });
    const next = await agent.claim();
    expect(next?.package).toMatchObject({ sha256: sha256(second), signature: null });
  });
});
