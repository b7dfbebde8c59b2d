import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotaParameters } from '../src/db/schema/index.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { systemScope } from '../src/lib/tenant-scope.js';
import { AuditService } from '../src/modules/audit/service.js';
import { ParameterService } from '../src/modules/parameters/service.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

const B = '/api/rota/parameter/api/v1';
const XOR = 'The parameter must have a value OR a password, not both!';
let t: TestApp;
let c: Tenants;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['PARAMETROS.LIST'] });
});
afterAll(() => t.close());

type Caller = Tenants['admin'];

async function createParameter(as: Caller, body: object): Promise<number> {
  const res = await as.post(`${B}/create`, body);
  expect(res.status).toBe(201);
  return res.body.data.rota_parameters_id;
}

async function storedRow(id: number) {
  const [row] = await t.db
    .select()
    .from(rotaParameters)
    .where(eq(rotaParameters.rota_parameters_id, id));
  return row!;
}

const show = async (id: number) => (await c.admin.post(`${B}/show`, { id })).body.data;

describe('parameters', () => {
  it('round-trips create, show, update, list and delete with the generic answers', async () => {
    const created = await c.admin.post(`${B}/create`, {
      name: 'API_URL',
      value: 'https://erp.example.com',
      description: 'ERP endpoint',
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({
      name: 'API_URL',
      value: 'https://erp.example.com',
      has_password: false,
      description: 'ERP endpoint',
    });
    const id = created.body.data.rota_parameters_id;
    expect(await show(id)).toEqual(created.body.data);

    const updated = await c.admin.put(`${B}/update`, { id, value: 'https://erp2.example.com' });
    expect(updated.status).toBe(204);
    expect(await show(id)).toMatchObject({
      name: 'API_URL',
      value: 'https://erp2.example.com',
      description: 'ERP endpoint',
    });

    const listed = await c.admin.post(`${B}/index`, { search: 'api_url' });
    expect(
      listed.body.data.map((p: { rota_parameters_id: number }) => p.rota_parameters_id),
    ).toEqual([id]);

    const removed = await c.admin.post(`${B}/delete`, { id });
    expect(removed.status).toBe(202);
    expect(removed.body.message).toBe('Removed!');
    expect((await c.admin.post(`${B}/show`, { id })).status).toBe(404);
  });

  it('keeps a password sealed at rest and out of every answer', async () => {
    const password = 'S3cr3t-P@ssw0rd!';
    const created = await c.admin.post(`${B}/create`, { name: 'DB_PASS', password });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'DB_PASS', value: null, has_password: true });
    const id = created.body.data.rota_parameters_id;

    const row = await storedRow(id);
    expect(row.value).toBeNull();
    expect(row.password_sealed).not.toBeNull();
    expect(row.password_sealed).not.toContain(password);
    expect(new SecretBox(t.secretKey).open(row.password_sealed!)).toBe(password);

    const answers = [
      created,
      await c.admin.post(`${B}/show`, { id }),
      await c.admin.post(`${B}/index`, { search: 'DB_PASS' }),
      await c.admin.post(`${B}/index`, { per_page: 100 }),
    ];
    for (const answer of answers) {
      const text = JSON.stringify(answer.body);
      expect(text).toContain('DB_PASS');
      expect(text).not.toContain(password);
      expect(text).not.toContain(row.password_sealed);
      expect(text).not.toContain('password_sealed');
    }
  });

  it('switches between value and password, and keeps the password when neither is sent', async () => {
    const id = await createParameter(c.admin, { name: 'TOKEN', password: 'first-secret' });
    const box = new SecretBox(t.secretKey);

    expect((await c.admin.put(`${B}/update`, { id, description: 'Rotated monthly' })).status).toBe(
      204,
    );
    const kept = await storedRow(id);
    expect(box.open(kept.password_sealed!)).toBe('first-secret');
    expect(await show(id)).toMatchObject({ has_password: true, value: null });

    expect((await c.admin.put(`${B}/update`, { id, password: 'second-secret' })).status).toBe(204);
    expect(box.open((await storedRow(id)).password_sealed!)).toBe('second-secret');

    expect(
      (await c.admin.put(`${B}/update`, { id, value: 'plain now', password: '' })).status,
    ).toBe(204);
    expect(await storedRow(id)).toMatchObject({ value: 'plain now', password_sealed: null });
    expect(await show(id)).toMatchObject({ value: 'plain now', has_password: false });

    expect(
      (await c.admin.put(`${B}/update`, { id, password: 'third-secret', value: null })).status,
    ).toBe(204);
    const sealed = await storedRow(id);
    expect(sealed.value).toBeNull();
    expect(box.open(sealed.password_sealed!)).toBe('third-secret');
    expect(await show(id)).toMatchObject({
      value: null,
      has_password: true,
      description: 'Rotated monthly',
    });
  });

  it('asks for a value or a password, never both and never neither', async () => {
    const both = await c.admin.post(`${B}/create`, { name: 'BOTH', value: 'v', password: 'p' });
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual([{ field: 'value', message: XOR }]);
    const neither = await c.admin.post(`${B}/create`, { name: 'NEITHER' });
    // An empty value is a missing value, not "both".
    expect(neither.body.errors).toEqual([
      { field: 'value', message: 'Required value (or a password)' },
    ]);
    const blanks = await c.admin.post(`${B}/create`, { name: 'BLANKS', value: '', password: '' });
    expect(blanks.body.errors).toEqual([
      { field: 'value', message: 'Required value (or a password)' },
    ]);
    expect((await c.admin.post(`${B}/index`, { search: 'BOTH' })).body.meta.total).toBe(0);

    const id = await createParameter(c.admin, { name: 'SINGLE', value: 'one', password: '' });
    const twice = await c.admin.put(`${B}/update`, { id, value: 'v', password: 'p' });
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual([{ field: 'value', message: XOR }]);
    expect(await storedRow(id)).toMatchObject({ value: 'one', password_sealed: null });

    const pt = client(t.app, {
      token: await signIn(t.app, ADMIN.access, ADMIN.password),
      lang: 'pt',
    });
    const inPt = await pt.post(`${B}/create`, { name: 'PT', value: 'v', password: 'p' });
    expect(inPt.body.errors).toEqual([
      { field: 'value', message: 'O parâmetro deve ter um valor OU uma senha, não ambos!' },
    ]);
    const emptyPt = await pt.post(`${B}/create`, { name: 'EMPTY', value: '' });
    expect(emptyPt.body.errors).toEqual([
      { field: 'value', message: 'Valor obrigatório (ou uma senha)' },
    ]);
    const namePt = await pt.post(`${B}/create`, { value: 'v' });
    expect(namePt.body.errors).toEqual([{ field: 'name', message: 'Nome obrigatório' }]);
  });

  it('says which fields are wrong', async () => {
    const en = await c.admin.post(`${B}/create`, { name: '', value: 'v' });
    expect(en.body.errors).toEqual([{ field: 'name', message: 'Required name' }]);
    const shape = await c.admin.post(`${B}/create`, { name: '9lives', value: 'v' });
    const allowed =
      'Use letters, digits and "_", starting with a letter: the robot reads it as ROTA_PARAM_<NAME>';
    expect(shape.body.errors).toEqual([{ field: 'name', message: allowed }]);
    // "." and "-" cannot be in an environment variable's name: refused, never silently missing.
    for (const name of ['db.host', 'api-key', 'a b']) {
      const refused = await c.admin.post(`${B}/create`, { name, value: 'v' });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([{ field: 'name', message: allowed }]);
    }
    const long = await c.admin.post(`${B}/create`, {
      name: 'LONG',
      value: 'v'.repeat(10001),
      description: 'd'.repeat(2001),
    });
    expect(long.body.errors).toEqual([
      { field: 'value', message: 'Too long' },
      { field: 'description', message: 'Too long' },
    ]);
  });

  it('paginates, searches and sorts', async () => {
    for (let i = 1; i <= 11; i++) {
      await createParameter(c.admin, { name: `PAGE_${String(i).padStart(2, '0')}`, value: `${i}` });
    }
    const page = await c.admin.post(`${B}/index`, { search: 'page_', page: 2, per_page: 5 });
    expect(page.body.meta).toEqual({ total: 11, current_page: 2, per_page: 5 });
    expect(page.body.data.map((p: { name: string }) => p.name)).toEqual([
      'PAGE_06',
      'PAGE_07',
      'PAGE_08',
      'PAGE_09',
      'PAGE_10',
    ]);
    const desc = await c.admin.post(`${B}/index`, {
      search: 'page_',
      sort: 'name',
      order: 'desc',
      per_page: 1,
    });
    expect(desc.body.data[0].name).toBe('PAGE_11');
  });

  it('refuses a duplicate name in the client with 409, but not in another client', async () => {
    const first = await createParameter(c.admin, { name: 'Shared_Name', value: 'a' });
    const dup = await c.admin.post(`${B}/create`, { name: 'SHARED_NAME', password: 'b' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      { field: 'name', message: 'A parameter with this name already exists' },
    ]);
    const second = await createParameter(c.admin, { name: 'Other_Name', value: 'a' });
    expect((await c.admin.put(`${B}/update`, { id: second, name: 'shared_name' })).status).toBe(
      409,
    );
    expect((await show(first)).name).toBe('Shared_Name');
    expect((await c.other.post(`${B}/create`, { name: 'Shared_Name', value: 'c' })).status).toBe(
      201,
    );
  });

  it('needs PARAMETROS permissions: list alone can read but not write', async () => {
    const id = await createParameter(c.admin, { name: 'GUARDED', value: 'x' });
    expect((await c.limited.post(`${B}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${B}/show`, { id })).status).toBe(200);
    expect((await c.limited.post(`${B}/create`, { name: 'NOPE', value: 'x' })).status).toBe(403);
    expect((await c.limited.put(`${B}/update`, { id, value: 'y' })).status).toBe(403);
    expect((await c.limited.post(`${B}/delete`, { id })).status).toBe(403);
    const none = await setUpTenants(t, { permissions: ['AGENTES.LIST'] });
    expect((await none.limited.post(`${B}/index`, {})).status).toBe(403);
  });

  it('answers 404 for another client’s parameter on every call and keeps it out of its list', async () => {
    const mine = await createParameter(c.admin, { name: 'PRIVATE', password: 'p' });
    expect((await c.other.post(`${B}/show`, { id: mine })).status).toBe(404);
    expect((await c.other.put(`${B}/update`, { id: mine, value: 'stolen' })).status).toBe(404);
    expect((await c.other.post(`${B}/delete`, { id: mine })).status).toBe(404);
    expect((await c.other.post(`${B}/index`, { search: 'PRIVATE' })).body.meta.total).toBe(0);
    expect(await show(mine)).toMatchObject({ name: 'PRIVATE', has_password: true });
  });

  it('opens the values for a run, in the client only (readForRun)', async () => {
    const fresh = await setUpTenants(t);
    await createParameter(fresh.other, { name: 'RUN_URL', value: 'https://run.example.com' });
    await createParameter(fresh.other, { name: 'RUN_PASS', password: 'run-secret' });
    await createParameter(c.admin, { name: 'RUN_ELSEWHERE', value: 'not yours' });

    const service = new ParameterService(t.db, new SecretBox(t.secretKey), new AuditService(t.db));
    const scope = systemScope(fresh.otherClientId);
    expect(await service.readForRun(scope)).toEqual([
      { name: 'RUN_PASS', value: 'run-secret', secret: true },
      { name: 'RUN_URL', value: 'https://run.example.com', secret: false },
    ]);
    expect(await service.readForRun(scope, ['run_pass', 'MISSING'])).toEqual([
      { name: 'RUN_PASS', value: 'run-secret', secret: true },
    ]);
    expect(await service.readForRun(scope, [])).toEqual([]);

    // Another key cannot open what this app sealed.
    const stranger = new ParameterService(
      t.db,
      new SecretBox(Buffer.alloc(32, 7)),
      new AuditService(t.db),
    );
    await expect(stranger.readForRun(scope, ['RUN_PASS'])).rejects.toThrow();
  });
});
