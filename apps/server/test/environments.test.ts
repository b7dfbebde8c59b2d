import net from 'node:net';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLogs, rotaEnvironments } from '../src/db/schema/index.js';
import { rateLimits } from '../src/db/schema/lib/rate-limiter.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { createProfile, createUser } from './helpers/fixtures.js';
import { startPgliteServer } from './helpers/pglite-server.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

const B = '/api/rota/env/api/v1';
let t: TestApp;
let c: Tenants;

/** The PostgreSQL the suite runs on, when it runs on one (trust authentication). */
const SUITE_PG = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL) : undefined;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['USUARIOS.LIST'] });
});
afterAll(() => t.close());

type Caller = Tenants['admin'];

async function createEnvironment(as: Caller, body: object): Promise<number> {
  const res = await as.post(`${B}/create`, body);
  expect(res.status).toBe(201);
  return res.body.data.rota_environments_id as number;
}

async function storedRow(id: number) {
  const [row] = await t.db
    .select()
    .from(rotaEnvironments)
    .where(eq(rotaEnvironments.rota_environments_id, id));
  return row!;
}

async function auditOf(id: number) {
  return t.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.entity, 'environment'), eq(auditLogs.entity_id, String(id))))
    .orderBy(auditLogs.audit_logs_id);
}

const show = async (id: number) => (await c.admin.post(`${B}/show`, { id })).body.data;

describe('environments', () => {
  it('round-trips create, show, update, list and delete, each write audited', async () => {
    const created = await c.admin.post(`${B}/create`, {
      title: 'Production',
      db_url: 'db.example.com',
      db_name: 'erp',
      db_user: 'robot',
      db_port: 5433,
      rota_api_url: 'https://rota.example.com/api',
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({
      title: 'Production',
      db_url: 'db.example.com',
      db_name: 'erp',
      db_user: 'robot',
      db_port: 5433,
      rota_api_url: 'https://rota.example.com/api',
      has_db_pass: false,
      has_rota_token: false,
    });
    const id = created.body.data.rota_environments_id;
    expect(await show(id)).toEqual(created.body.data);

    const updated = await c.admin.put(`${B}/update`, { id, db_name: 'erp2', db_port: null });
    expect(updated.status).toBe(204);
    expect(await show(id)).toMatchObject({
      title: 'Production',
      db_url: 'db.example.com',
      db_name: 'erp2',
      db_port: null,
      rota_api_url: 'https://rota.example.com/api',
    });

    const listed = await c.admin.post(`${B}/index`, { search: 'producti' });
    expect(
      listed.body.data.map((e: { rota_environments_id: number }) => e.rota_environments_id),
    ).toEqual([id]);

    const removed = await c.admin.post(`${B}/delete`, { id });
    expect(removed.status).toBe(202);
    expect(removed.body.message).toBe('Removed!');
    expect((await c.admin.post(`${B}/show`, { id })).status).toBe(404);

    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
    expect(audit[0]).toMatchObject({ rota_clients_id: c.defaultClientId, before: null });
    expect(audit[1]!.before).toMatchObject({ db_name: 'erp', db_port: 5433 });
    expect(audit[1]!.after).toMatchObject({ db_name: 'erp2', db_port: null });
    expect(audit[2]).toMatchObject({ after: null });
    expect(audit[2]!.before).toMatchObject({ title: 'Production' });
  });

  it('paginates, searches and sorts', async () => {
    const fresh = await setUpTenants(t);
    const admin = await clientAdmin(fresh.otherClientId);
    for (let i = 1; i <= 23; i++) {
      await createEnvironment(admin, { title: `Stage ${String(i).padStart(2, '0')}` });
    }
    const page = await admin.post(`${B}/index`, { search: 'stage', page: 3, per_page: 10 });
    expect(page.status).toBe(200);
    expect(page.body.meta).toEqual({ total: 23, current_page: 3, per_page: 10 });
    expect(page.body.data.map((e: { title: string }) => e.title)).toEqual([
      'Stage 21',
      'Stage 22',
      'Stage 23',
    ]);
    const desc = await admin.post(`${B}/index`, { sort: 'title', order: 'desc', per_page: 2 });
    expect(desc.body.data.map((e: { title: string }) => e.title)).toEqual(['Stage 23', 'Stage 22']);
    const defaults = await admin.post(`${B}/index`, {});
    expect(defaults.body.meta).toEqual({ total: 23, current_page: 1, per_page: 20 });
    const badSort = await admin.post(`${B}/index`, { sort: 'db_pass' });
    expect(badSort.status).toBe(400);
  });

  it('says which fields are wrong, in the caller’s language', async () => {
    const en = await c.admin.post(`${B}/create`, {
      title: ' ',
      db_port: 70000,
      rota_api_url: 'ftp://x',
      db_pass: 12,
    });
    expect(en.status).toBe(400);
    expect(en.body.errors).toEqual([
      { field: 'title', message: 'Required title' },
      { field: 'db_pass', message: 'Invalid value' },
      { field: 'db_port', message: 'Between 1 and 65535' },
      { field: 'rota_api_url', message: 'Must be an http(s) address' },
    ]);
    const missing = await c.admin.post(`${B}/create`, {});
    expect(missing.body.errors).toEqual([{ field: 'title', message: 'Required title' }]);

    const pt = client(t.app, {
      token: await signIn(t.app, ADMIN.access, ADMIN.password),
      lang: 'pt',
    });
    const inPt = await pt.post(`${B}/create`, { db_port: 0, rota_api_url: 'nope' });
    expect(inPt.body.errors).toEqual([
      { field: 'title', message: 'Título obrigatório' },
      { field: 'db_port', message: 'Entre 1 e 65535' },
      { field: 'rota_api_url', message: 'Deve ser um endereço http(s)' },
    ]);
    const id = await createEnvironment(c.admin, { title: 'Validated' });
    const update = await pt.put(`${B}/update`, { id, title: '' });
    expect(update.status).toBe(400);
    expect(update.body.errors).toEqual([{ field: 'title', message: 'Título obrigatório' }]);
    expect((await c.admin.put(`${B}/update`, { title: 'x' })).body.errors).toEqual([
      { field: 'id', message: 'Invalid value' },
    ]);
  });

  it('refuses a duplicate title in the client with 409, but not in another client', async () => {
    const first = await createEnvironment(c.admin, { title: 'Homologation' });
    const dup = await c.admin.post(`${B}/create`, { title: 'HOMOLOGATION' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('conflict');
    expect(dup.body.errors).toEqual([
      { field: 'title', message: 'An environment with this title already exists' },
    ]);
    const second = await createEnvironment(c.admin, { title: 'Other env' });
    const renamed = await c.admin.put(`${B}/update`, { id: second, title: 'homologation' });
    expect(renamed.status).toBe(409);
    expect((await show(first)).title).toBe('Homologation');
    const otherAdmin = await clientAdmin(c.otherClientId);
    expect((await otherAdmin.post(`${B}/create`, { title: 'Homologation' })).status).toBe(201);
  });

  it('keeps db_pass and rota_token sealed at rest and out of every answer', async () => {
    const dbPass = 'Db-P@ss-9f2c';
    const token = 'rota-token-7d1e5a';
    const created = await c.admin.post(`${B}/create`, {
      title: 'Secrets',
      db_url: 'db.local',
      db_pass: dbPass,
      rota_token: token,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ has_db_pass: true, has_rota_token: true });
    const id = created.body.data.rota_environments_id;

    const answers = [
      created,
      await c.admin.post(`${B}/show`, { id }),
      await c.admin.post(`${B}/index`, { search: 'Secrets' }),
    ];
    for (const answer of answers) {
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain(dbPass);
      expect(text).not.toContain(token);
      expect(text).not.toContain('sealed');
      expect(text).not.toMatch(/"db_pass"|"rota_token"/);
    }

    const box = new SecretBox(t.secretKey);
    const row = await storedRow(id);
    expect(row.db_pass_sealed).not.toContain(dbPass);
    expect(row.rota_token_sealed).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(dbPass);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(box.open(row.db_pass_sealed!)).toBe(dbPass);
    expect(box.open(row.rota_token_sealed!)).toBe(token);

    // Left out: kept. A new value: replaced. null: cleared.
    expect((await c.admin.put(`${B}/update`, { id, title: 'Secrets 2' })).status).toBe(204);
    expect(box.open((await storedRow(id)).db_pass_sealed!)).toBe(dbPass);
    expect(box.open((await storedRow(id)).rota_token_sealed!)).toBe(token);
    await c.admin.put(`${B}/update`, { id, db_pass: 'new-pass' });
    expect(box.open((await storedRow(id)).db_pass_sealed!)).toBe('new-pass');
    expect(box.open((await storedRow(id)).rota_token_sealed!)).toBe(token);
    await c.admin.put(`${B}/update`, { id, rota_token: null, db_pass: '' });
    expect(await storedRow(id)).toMatchObject({ db_pass_sealed: null, rota_token_sealed: null });
    expect(await show(id)).toMatchObject({ has_db_pass: false, has_rota_token: false });

    const audit = JSON.stringify(await auditOf(id));
    expect(audit).not.toContain(dbPass);
    expect(audit).not.toContain(token);
    expect(audit).not.toContain('new-pass');
  });

  it('needs USUARIOS permissions: list alone can read but neither write nor test', async () => {
    const id = await createEnvironment(c.admin, { title: 'Guarded' });
    expect((await c.limited.post(`${B}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${B}/show`, { id })).status).toBe(200);
    expect((await c.limited.post(`${B}/create`, { title: 'Nope' })).status).toBe(403);
    expect((await c.limited.put(`${B}/update`, { id, title: 'x' })).status).toBe(403);
    expect((await c.limited.post(`${B}/delete`, { id })).status).toBe(403);
    expect((await c.limited.post(`${B}/test`, { id })).status).toBe(403);

    const none = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
    expect((await none.limited.post(`${B}/index`, {})).status).toBe(403);
    expect((await none.limited.post(`${B}/show`, { id })).status).toBe(403);
    expect((await client(t.app).post(`${B}/index`, {})).status).toBe(401);
  });

  it('answers 404 for another client’s environment on every call and keeps it out of its list', async () => {
    const mine = await createEnvironment(c.admin, { title: 'Private env', db_url: 'x' });
    const other = await clientAdmin(c.otherClientId);
    expect((await other.post(`${B}/show`, { id: mine })).status).toBe(404);
    expect((await other.put(`${B}/update`, { id: mine, title: 'Stolen' })).status).toBe(404);
    expect((await other.put(`${B}/update`, { id: mine, db_pass: 'x' })).status).toBe(404);
    expect((await other.post(`${B}/delete`, { id: mine })).status).toBe(404);
    expect((await other.post(`${B}/test`, { id: mine })).status).toBe(404);
    expect((await other.post(`${B}/index`, { search: 'Private env' })).body.meta.total).toBe(0);
    expect((await show(mine)).title).toBe('Private env');
    expect(await storedRow(mine)).toMatchObject({ db_pass_sealed: null });
  });
});

describe('environment connection test', () => {
  const REFUSED = 'Connection refused: no PostgreSQL server accepted it at this address';
  const TIMED_OUT = 'No answer within 5 s';
  const AUTH_FAILED = 'Authentication failed: check the user, the password and the database';
  /**
   * A fresh administrator per test: each user may run only 10 tests a minute; and the client's
   * own budget (30 a minute) starts afresh, as every test here tries in the same client.
   */
  let tester: Caller;
  beforeEach(async () => {
    tester = await clientAdmin(c.defaultClientId);
    await t.db.delete(rateLimits).where(like(rateLimits.key, 'environment-test:client:%'));
  });
  const test = (id: number, extra: object = {}, as: Caller = tester) =>
    as.post(`${B}/test`, { id, ...extra });

  // Starting the embedded server takes a while on a busy machine.
  it(
    'connects to a reachable PostgreSQL (one the test starts) and says only that',
    { timeout: 90_000 },
    async () => {
      const postgres = await startPgliteServer();
      try {
        const id = await createEnvironment(c.admin, {
          title: 'Reachable PostgreSQL',
          db_url: postgres.host,
          db_port: postgres.port,
          db_name: 'postgres',
          db_user: 'postgres',
          db_pass: 'unused-with-trust',
        });
        const res = await test(id);
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ ok: true, message: 'Connected' });
        expect(JSON.stringify(res.body)).not.toMatch(/PostgreSQL \d/);
        expect(res.body.data.duration_ms).toBeGreaterThanOrEqual(0);
        expect(JSON.stringify(res.body)).not.toContain('unused-with-trust');

        const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
        expect((await test(id, {}, pt)).body.data.message).toBe('Conectado');
      } finally {
        await postgres.close();
      }
    },
  );

  // The embedded PostgreSQL has one database and one role and takes any name for them: only a
  // real server refuses an unknown one, so this runs on the suite's PostgreSQL (CI's second leg).
  it.runIf(SUITE_PG)(
    'tells an unknown database and an unknown role only as "authentication failed" (with DATABASE_URL)',
    async () => {
      const pg = SUITE_PG!;
      const base = {
        db_url: pg.hostname,
        db_port: Number(pg.port || 5432),
      };
      const missingDb = await createEnvironment(c.admin, {
        ...base,
        title: 'Missing database',
        db_name: 'rota_no_such_database',
        db_user: decodeURIComponent(pg.username) || 'postgres',
      });
      const res = await test(missingDb);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ ok: false, message: AUTH_FAILED });
      expect(JSON.stringify(res.body)).not.toContain('rota_no_such_database');

      const missingRole = await createEnvironment(c.admin, {
        ...base,
        title: 'Missing role',
        db_user: 'rota_no_such_role',
      });
      const role = await test(missingRole);
      expect(role.body.data).toMatchObject({ ok: false, message: AUTH_FAILED });
      expect(JSON.stringify(role.body)).not.toContain('rota_no_such_role');

      // The same server with a login it takes: connected, and nothing of its version.
      const real = await createEnvironment(c.admin, {
        ...base,
        title: 'Suite PostgreSQL',
        db_name: pg.pathname.slice(1) || 'postgres',
        db_user: decodeURIComponent(pg.username) || 'postgres',
        ...(pg.password ? { db_pass: decodeURIComponent(pg.password) } : {}),
      });
      const reached = await test(real);
      expect(reached.body.data).toMatchObject({ ok: true, message: 'Connected' });
    },
  );

  it('sends the stored password only to the host, port, user and database it was saved for', async () => {
    const saved = await fakePostgres();
    const elsewhere = await fakePostgres();
    try {
      const id = await createEnvironment(c.admin, {
        title: 'Bound password',
        db_url: '127.0.0.1',
        db_port: saved.port,
        db_user: 'robot',
        db_name: 'erp',
        db_pass: 'stored-secret-4b1d',
      });
      // The saved target gets it; PostgreSQL's refusal is told as one of the four answers.
      const first = await test(id);
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ ok: false, message: AUTH_FAILED });
      expect(saved.passwords).toEqual(['stored-secret-4b1d']);

      // The attack: point the environment elsewhere, keep the stored password, test.
      const moved = await c.admin.put(`${B}/update`, { id, db_port: elsewhere.port });
      expect(moved.status).toBe(204);
      const refused = await test(id);
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([
        {
          field: 'db_pass',
          message:
            'The host, port, user or database changed since the password was saved: type the password again',
        },
      ]);
      expect(elsewhere.connections).toBe(0);
      const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
      expect((await test(id, {}, pt)).body.errors[0].message).toMatch(/digite a senha novamente/);

      // Each part of the target counts: the user, the database, the host.
      for (const change of [
        { db_port: saved.port, db_user: 'other' },
        { db_user: 'robot', db_name: 'other' },
        { db_name: 'erp', db_url: 'localhost' },
      ]) {
        expect((await c.admin.put(`${B}/update`, { id, ...change })).status).toBe(204);
        expect((await test(id)).status).toBe(400);
      }
      expect(saved.passwords).toEqual(['stored-secret-4b1d']);
      expect(saved.connections).toBe(1);
      // Back where it was saved for (the host compared without case): the stored one goes again.
      await c.admin.put(`${B}/update`, { id, db_url: '127.0.0.1' });
      expect((await test(id)).status).toBe(200);
      expect(saved.passwords).toEqual(['stored-secret-4b1d', 'stored-secret-4b1d']);

      // Typed again: used for this try only, and the stored one is still bound where it was.
      await c.admin.put(`${B}/update`, { id, db_port: elsewhere.port });
      const typed = await test(id, { db_pass: 'typed-now' });
      expect(typed.status).toBe(200);
      expect(elsewhere.passwords).toEqual(['typed-now']);
      expect((await test(id)).status).toBe(400);

      // Saved with the new target: bound to it from now on.
      await c.admin.put(`${B}/update`, { id, db_pass: 'saved-for-elsewhere' });
      expect((await test(id)).status).toBe(200);
      expect(elsewhere.passwords).toEqual(['typed-now', 'saved-for-elsewhere']);
      expect(saved.passwords).not.toContain('saved-for-elsewhere');

      // A password stored before the binding existed has no known target: typed again first.
      await t.db
        .update(rotaEnvironments)
        .set({ db_pass_target: null })
        .where(eq(rotaEnvironments.rota_environments_id, id));
      expect((await test(id)).status).toBe(400);
      expect(elsewhere.passwords).toHaveLength(2);
    } finally {
      await saved.close();
      await elsewhere.close();
    }
  });

  it(
    'answers refused or timed out for whatever is not PostgreSQL, nothing more',
    { timeout: 60_000 },
    async () => {
      const silent = await silentServer();
      const closedPort = await freePort();
      const targets = {
        redis: { db_url: '127.0.0.1', db_port: 6379 },
        rabbitmq: { db_url: '127.0.0.1', db_port: 5672 },
        mariadb: { db_url: '127.0.0.1', db_port: 3306 },
        mosquitto: { db_url: '127.0.0.1', db_port: 1883 },
        nats: { db_url: '127.0.0.1', db_port: 4222 },
        closed: { db_url: '127.0.0.1', db_port: closedPort },
        // Stands for an unroutable address too: a connect that never completes and a startup
        // never answered end the same way, at the deadline (an address such as 10.255.255.1 is
        // refused at once on some machines, and then never took that path).
        silent: { db_url: '127.0.0.1', db_port: silent.port },
        unknownName: { db_url: 'no-such-host.invalid' },
      };
      try {
        const known = { closed: true, unknownName: true };
        const answers: Record<string, unknown> = {};
        for (const [name, target] of Object.entries(targets)) {
          const id = await createEnvironment(c.admin, {
            title: `Not PostgreSQL ${name}`,
            ...target,
            db_pass: 'never-sent-anywhere',
          });
          const res = await test(id);
          expect(res.status, name).toBe(200);
          expect(JSON.stringify(res.body)).not.toContain('never-sent-anywhere');
          answers[name] = { ok: res.body.data.ok, message: res.body.data.message };
        }
        // Whether this machine runs a Redis or a RabbitMQ decides which of the two they get.
        for (const [name, answer] of Object.entries(answers)) {
          const told =
            name === 'silent' ? [TIMED_OUT] : name in known ? [REFUSED] : [REFUSED, TIMED_OUT];
          expect(told, name).toContainEqual((answer as { message: string }).message);
          expect((answer as { ok: boolean }).ok, name).toBe(false);
        }
        // The silent one was really reached and asked as PostgreSQL, never answered, and the
        // server gave up on it: it hung up (only its deadline ends such a try).
        expect(silent.startups).toBe(1);
        await silent.untilHungUp(1);
        const pt = await clientAdmin(c.defaultClientId, 'pt');
        const closed = await createEnvironment(c.admin, { title: 'Closed pt', ...targets.closed });
        expect((await test(closed, {}, pt)).body.data.message).toBe(
          'Conexão recusada: nenhum servidor PostgreSQL a aceitou neste endereço',
        );
      } finally {
        await silent.close();
      }
    },
  );

  it('refuses internal, reserved and cloud metadata addresses before connecting', async () => {
    const refused = [
      '169.254.169.254',
      '169.254.1.10',
      'postgres://169.254.169.254:5432/db',
      'fe80::1',
      '[fe80::abcd]',
      'fd00:ec2::254',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '64:ff9b::169.254.169.254',
      '100.100.100.200',
      // 169.254.169.254 written as one number and in octal: resolved first, then checked.
      '2852039166',
      '0251.0376.0251.0376',
      'metadata.google.internal',
      'METADATA.GOOGLE.INTERNAL.',
      'metadata',
      // Not in this app's ALERT_ALLOWED_NETWORKS (loopback only).
      '10.0.0.5',
      '100.64.0.1',
      '[64:ff9b::7f00:1]',
      '::ffff:0:7f00:1',
      'fc00::1',
      '192.0.2.1',
    ];
    for (const [i, host] of refused.entries()) {
      const id = await createEnvironment(c.admin, { title: `Metadata ${i}`, db_url: host });
      const res = await test(id, { db_pass: 'typed' });
      expect(res.status, host).toBe(400);
      expect(res.body.errors, host).toEqual([
        {
          field: 'db_url',
          message:
            'Destination not allowed: internal, reserved and cloud metadata addresses are refused unless the administrator allows the network (ALERT_ALLOWED_NETWORKS)',
        },
      ]);
      // Each test above counts against the caller's 10 a minute.
      if (i % 8 === 7) tester = await clientAdmin(c.defaultClientId);
    }
  });

  it('needs a host to try', async () => {
    const id = await createEnvironment(c.admin, { title: 'No host' });
    const res = await test(id);
    expect(res.body.data).toEqual({
      ok: false,
      message: 'The environment has no database host (db_url)',
      duration_ms: 0,
    });
  });

  it('lets each user try 10 times a minute, then answers 429', async () => {
    const id = await createEnvironment(c.admin, { title: 'Rate limited' });
    for (let i = 0; i < 10; i++) expect((await test(id)).status).toBe(200);
    const limited = await test(id);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe('Too many connection tests. Wait a minute and try again.');
    expect(limited.headers['retry-after']).toBe('60');
    // Per user: another administrator is not held back.
    expect((await test(id, {}, await clientAdmin(c.defaultClientId))).status).toBe(200);
  });

  it('lets a client try 30 times a minute, all its users together, then answers 429', async () => {
    const id = await createEnvironment(c.admin, { title: 'Client rate limited' });
    for (let user = 0; user < 3; user++) {
      const as = await clientAdmin(c.defaultClientId);
      for (let i = 0; i < 10; i++) expect((await test(id, {}, as)).status).toBe(200);
    }
    // A fourth user, with all of their own budget: the client's is spent.
    const fresh = await clientAdmin(c.defaultClientId);
    const limited = await test(id, {}, fresh);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    // Per client: the other client's users are not held back.
    const otherAdmin = await clientAdmin(c.otherClientId);
    const other = await createEnvironment(otherAdmin, { title: 'Other client' });
    expect((await test(other, {}, otherAdmin)).status).toBe(200);
  });
});

describe('environment connection test, the outbound rule and the log', () => {
  it('refuses loopback, by address and by `localhost`, where the administrator allowed none', async () => {
    const strict = await createTestApp({ allowedNetworks: null });
    try {
      const tenants = await setUpTenants(strict);
      for (const host of ['127.0.0.1', 'localhost', '::1', 'postgres://localhost:5432/db']) {
        const created = await tenants.admin.post(`${B}/create`, {
          title: `Strict ${host}`,
          db_url: host,
        });
        expect(created.status).toBe(201);
        const res = await tenants.admin.post(`${B}/test`, {
          id: created.body.data.rota_environments_id,
          db_pass: 'typed',
        });
        expect(res.status, host).toBe(400);
        expect(res.body.errors[0].field).toBe('db_url');
      }
    } finally {
      await strict.close();
    }
  });

  it('keeps what the server answered for the log, never the password', async () => {
    const lines: string[] = [];
    const logged = await createTestApp({
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      const tenants = await setUpTenants(logged);
      const port = await freePort();
      const created = await tenants.admin.post(`${B}/create`, {
        title: 'Logged',
        db_url: '127.0.0.1',
        db_port: port,
        db_pass: 'logged-secret-91c2',
      });
      const res = await tenants.admin.post(`${B}/test`, {
        id: created.body.data.rota_environments_id,
      });
      expect(res.body.data).toMatchObject({
        ok: false,
        message: 'Connection refused: no PostgreSQL server accepted it at this address',
      });
      const line = lines.find((l) => l.includes('environment connection test'));
      expect(line).toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({
        verdict: 'refused',
        target: { host: '127.0.0.1', port },
        detail: expect.stringContaining('ECONNREFUSED'),
      });
      expect(lines.join('\n')).not.toContain('logged-secret-91c2');
    } finally {
      await logged.close();
    }
  });
});

/**
 * A listener that speaks just enough of PostgreSQL's protocol to ask for a clear-text password,
 * record it and refuse it, like a server with password authentication (the tests' PostgreSQL
 * trusts every local connection, so it cannot say "wrong password" itself).
 */
async function fakePostgres() {
  const passwords: string[] = [];
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    let buffer = Buffer.alloc(0);
    let started = false;
    let answered = false;
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      if (answered) return;
      buffer = Buffer.concat([buffer, chunk]);
      if (!started && buffer.length >= 4 && buffer.length >= buffer.readInt32BE(0)) {
        buffer = buffer.subarray(buffer.readInt32BE(0));
        started = true;
        const askPassword = Buffer.alloc(9);
        askPassword.write('R', 0);
        askPassword.writeInt32BE(8, 1);
        askPassword.writeInt32BE(3, 5); // AuthenticationCleartextPassword
        socket.write(askPassword);
      }
      if (started && buffer.length >= 5 && buffer.length >= 1 + buffer.readInt32BE(1)) {
        const length = buffer.readInt32BE(1);
        answered = true;
        passwords.push(buffer.subarray(5, 1 + length - 1).toString('utf8'));
        const fields = Buffer.from(
          'SFATAL\0VFATAL\0C28P01\0Mpassword authentication failed for user "robot"\0\0',
        );
        const header = Buffer.alloc(5);
        header.write('E', 0);
        header.writeInt32BE(4 + fields.length, 1);
        socket.end(Buffer.concat([header, fields]));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    passwords,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A listener that accepts, reads and never answers, like a hung or firewalled server; it counts
 * the PostgreSQL startup messages it got and the connections the caller closed.
 */
async function silentServer() {
  const PROTOCOL_3 = 196608;
  let startups = 0;
  let hungUp = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let first = true;
    socket.on('data', (chunk) => {
      if (first && chunk.length >= 8 && chunk.readInt32BE(4) === PROTOCOL_3) startups++;
      first = false;
    });
    socket.on('end', () => hungUp++);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get startups() {
      return startups;
    },
    async untilHungUp(count: number) {
      for (let i = 0; i < 200 && hungUp < count; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(hungUp).toBe(count);
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A member of `clientId` holding every USUARIOS permission. */
async function clientAdmin(clientId: number, lang: 'en' | 'pt' = 'en') {
  const profile = await createProfile(t.db, clientId, `Env admins ${Math.random()}`, [
    'USUARIOS.LIST',
    'USUARIOS.CREATE',
    'USUARIOS.UPDATE',
    'USUARIOS.DELETE',
  ]);
  const access = `envadmin${clientId}${Math.random().toString(36).slice(2, 6)}`;
  await createUser(t.db, {
    access,
    password: 'env-admin-password',
    memberships: [{ clientId, profileId: profile.profiles_id }],
  });
  return client(t.app, { token: await signIn(t.app, access, 'env-admin-password'), lang });
}
