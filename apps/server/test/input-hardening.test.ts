import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { translateMessage } from '@rota/contract';
import type { Database } from '../src/db/client.js';
import { rotaClients } from '../src/db/schema/index.js';
import { seedDatabase } from '../src/db/seed.js';
import { buildApp, type App } from '../src/http/app.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { systemScope } from '../src/lib/tenant-scope.js';
import {
  ActivityService,
  CSV_EXPORT_FAILED_LINE,
} from '../src/modules/executions/activity-service.js';
import { MAX_JSON_DEPTH } from '../src/http/json-body.js';
import { openTestDatabase } from './helpers/database.js';
import { ACTIVITY, AGENT, executionOf, runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { ADMIN, client, signIn } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * Input PostgreSQL cannot take is a 400 with a field error, except robot output,
 * which is stored with it replaced; numbers and dates stay in range; the CSV export never
 * answers 200 and then breaks; and a failed query's parameters never reach the log.
 */
let database: Database;
let dataDir: string;
let app: App;
let admin: ReturnType<typeof client>;
const logLines: string[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rota-hardening-'));
  await seedDatabase(database.db, {
    adminAccess: ADMIN.access,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
  });
  // The server's log, as an operator's log collector would receive it.
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  app = await buildApp({
    config: {
      publicUrl: 'http://rota.test',
      SMTP_URL: undefined,
      MAIL_FROM: 'r@test',
      TRUST_PROXY: false,
    },
    db: database.db,
    events: database.events,
    webRoot: null,
    secretBox: new SecretBox(randomBytes(32)),
    dataDir,
    engine: { loop: false },
    logger: { level: 'info', stream },
  });
  await app.ready();
  admin = client(app, { token: await signIn(app, ADMIN.access, ADMIN.password) });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const NUL = '\u0000';

describe('NUL in input', () => {
  it('is refused field by field, in the caller language, and nothing is stored', async () => {
    const res = await admin.post('/api/rota/robot/api/v1/create', {
      name: `Bad${NUL}robot`,
      executor: 'node main.js',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'name', message: translateMessage('en', 'invalid_character') },
    ]);

    const pt = client(app, { token: admin.authorization!.slice(7), lang: 'pt' });
    const search = await pt.post('/api/rota/robot/api/v1/index', { search: `x${NUL}` });
    expect(search.status).toBe(400);
    expect(search.body.errors).toEqual([
      { field: 'search', message: translateMessage('pt', 'invalid_character') },
    ]);
    expect(translateMessage('pt', 'invalid_character')).not.toBe(
      translateMessage('en', 'invalid_character'),
    );

    const list = await admin.post('/api/rota/robot/api/v1/index', { search: 'Bad' });
    expect(list.body.meta.total).toBe(0);
  });

  it('is refused deep inside free JSON (task data), keys included', async () => {
    const robot = await createRobot(admin, 'NUL tasks robot');
    const inValue = await admin.post('/api/rota/task/api/v1/create', {
      rota_robots_id: robot,
      expiration_date: '2999-01-01',
      data: { invoice: { lines: ['ok', `b${NUL}d`] } },
    });
    expect(inValue.status).toBe(400);
    expect(inValue.body.errors).toEqual([
      { field: 'data.invoice.lines.1', message: translateMessage('en', 'invalid_character') },
    ]);
    const inKey = await admin.post('/api/rota/task/api/v1/create', {
      rota_robots_id: robot,
      expiration_date: '2999-01-01',
      data: { [`k${NUL}`]: 1 },
    });
    expect(inKey.status).toBe(400);
    expect(inKey.body.errors[0].message).toBe(translateMessage('en', 'invalid_character'));
  });
});

describe('the agent protocol', () => {
  let agent: ReturnType<typeof simulatedAgent>;
  let agentToken: string;
  let execution: number;
  let attempt: number;

  beforeAll(async () => {
    const vm = await createVm(admin, 'Hardening VM');
    agentToken = (await createAgent(admin, 'Hardening agent', vm)).token;
    agent = simulatedAgent(app, agentToken);
    expect((await agent.hello()).status).toBe(200);
    const robot = await createRobot(admin, 'Prints NUL');
    execution = await runNow(admin, { id: robot });
    const run = await agent.claim();
    attempt = run!.attempt;
  });

  it('stores robot output with NUL replaced instead of refusing the batch', async () => {
    // printf 'bad\000line\n': the batch is taken, the line kept, the byte made visible.
    const logs = await agent.logs(execution, attempt, [`bad${NUL}line`]);
    expect(logs.status).toBe(200);
    const stored = await admin.post(`${ACTIVITY}/logs`, { id: execution });
    expect(stored.body.data.map((l: { line: string }) => l.line)).toEqual(['bad\uFFFDline']);
  });

  it('refuses numbers PostgreSQL integer columns cannot hold and year-0 instants', async () => {
    const line = { seq: 2, stream: 'stdout', line: 'x', at: new Date().toISOString() };
    const as = client(app, { token: agentToken });
    const send = (body: object) => as.post(`${AGENT}/logs`, body);
    expect((await send({ execution_id: execution, attempt: 2 ** 31, lines: [line] })).status).toBe(
      400,
    );
    const bigSeq = await send({
      execution_id: execution,
      attempt,
      lines: [{ ...line, seq: 2 ** 31 }],
    });
    expect(bigSeq.status).toBe(400);
    expect(bigSeq.body.errors[0].field).toBe('lines.0.seq');
    const yearZero = await send({
      execution_id: execution,
      attempt,
      lines: [{ ...line, at: '0000-01-01T00:00:00Z' }],
    });
    expect(yearZero.status).toBe(400);
    expect(yearZero.body.errors[0].field).toBe('lines.0.at');
    const hugeExit = await as.post(`${AGENT}/finish`, {
      execution_id: execution,
      attempt,
      status: 'application_error',
      exit_code: 2 ** 40,
      message: null,
    });
    expect(hugeExit.status).toBe(400);
  });

  it("keeps a Windows exit code as signed and the finish message's NUL replaced", async () => {
    const finish = await agent.finish(
      execution,
      attempt,
      'application_error',
      3221225477,
      `crashed${NUL}`,
    );
    expect(finish.status).toBe(200);
    const done = await executionOf(admin, execution);
    expect(done.exit_code).toBe(-1073741819);
    expect(done.message).toBe('crashed\uFFFD');
  });
});

describe('dates', () => {
  it('answers 400 to a year-0 day in a range filter', async () => {
    const res = await admin.post(`${ACTIVITY}/index`, { startDate: '0000-01-01' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('startDate');
  });
});

describe('the CSV export', () => {
  it('ends with a visible error line when a later page fails, after complete rows', async () => {
    const [client0] = await database.db
      .select({ id: rotaClients.rota_clients_id })
      .from(rotaClients)
      .where(eq(rotaClients.name, 'Default'));
    const robot = await createRobot(admin, 'Export robot');
    await runNow(admin, { id: robot });
    await runNow(admin, { id: robot });
    const errors: unknown[] = [];
    // One row a page, so the second page is a second query.
    const activity = new ActivityService(
      database.db,
      app.services.runControl,
      app.services.audit,
      1,
    );
    const today = new Date().toISOString().slice(0, 10);
    const lines = await activity.exportCsv(
      systemScope(client0!.id),
      { startDate: today, endDate: today, rota_robots_id: robot } as never,
      (error) => errors.push(error),
    );
    const header = await lines.next();
    expect(header.value).toMatch(/^\uFEFFExecution ID,/);
    const firstRow = await lines.next();
    expect(firstRow.value).toMatch(/Export robot/);
    // The database goes away between two pages.
    await database.db.execute(sql`alter table rota_robots rename to rota_robots_gone`);
    try {
      const last = await lines.next();
      expect(last.value).toBe(CSV_EXPORT_FAILED_LINE);
      expect((await lines.next()).done).toBe(true);
      expect(errors).toHaveLength(1);
    } finally {
      await database.db.execute(sql`alter table rota_robots_gone rename to rota_robots`);
    }
  });

  it('refuses a bad range with a 400 before any byte of CSV', async () => {
    const res = await admin.post(`${ACTIVITY}/export`, {
      startDate: '2026-01-02',
      endDate: '2026-01-01',
    });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/json/);
  });
});

/** `{"a":` twenty thousand times: 120 KB that once held the event loop for most of a second. */
const DEEP = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
const PASSWORD = '/api/user/api/v1/update/password';

describe('JSON nested deep', () => {
  it('is refused 400 json_too_deep in the caller language, a field error on the body', async () => {
    for (const lang of ['en', 'pt'] as const) {
      const res = await app.inject({
        method: 'PUT',
        url: PASSWORD,
        headers: {
          authorization: admin.authorization!,
          'accept-language': lang,
          'content-type': 'application/json',
        },
        payload: DEEP,
      });
      expect(res.statusCode).toBe(400);
      const message = translateMessage(lang, 'json_too_deep');
      expect(res.json()).toEqual({
        code: 'json_too_deep',
        message,
        errors: [{ field: '', message }],
      });
    }
    expect(translateMessage('pt', 'json_too_deep')).not.toBe(
      translateMessage('en', 'json_too_deep'),
    );
  });

  it('is taken up to the limit, and brackets inside strings do not count', async () => {
    const send = (payload: string) =>
      app.inject({
        method: 'PUT',
        url: PASSWORD,
        headers: { authorization: admin.authorization!, 'content-type': 'application/json' },
        payload,
      });
    const atLimit = await send(
      `{"old_password": ${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`,
    );
    // Past the parser: the schema's own answer.
    expect(atLimit.statusCode).toBe(400);
    expect(atLimit.json().code).toBe('invalid_input');
    const overLimit = await send(
      `{"old_password": ${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`,
    );
    expect(overLimit.json().code).toBe('json_too_deep');
    const inString = await send(JSON.stringify({ old_password: `\\"${'['.repeat(5000)}` }));
    expect(inString.json().code).toBe('invalid_input');
  });

  it('is ignored on a GET, which reads no body, and refused on a route that does not exist', async () => {
    const send = (method: 'GET' | 'POST', url: string) =>
      app.inject({ method, url, headers: { 'content-type': 'application/json' }, payload: DEEP });
    // Fastify reads the body of a request it answers 404 to, so its depth is refused first.
    const nowhere = await send('POST', '/api/rota/nothing/here');
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.json().code).toBe('json_too_deep');
    expect((await send('GET', '/api/health')).statusCode).toBe(200);
    // The process is still whole: an uncaught stream error would have failed the run.
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('is answered before the rest of it arrives, and the health probe meanwhile', async () => {
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(origin);
    // Were they never answered, the test fails on its timeout without holding the app open.
    const requests: http.ClientRequest[] = [];
    onTestFinished(() => requests.forEach((request) => request.destroy()));
    /** A deep body of which only `prefix` characters are ever sent: its answer comes anyway. */
    const unfinished = (prefix: number) =>
      new Promise<{ status: number; body: any; sent: number }>((resolve, reject) => {
        const request = http.request({
          host: '127.0.0.1',
          port,
          method: 'PUT',
          path: PASSWORD,
          headers: {
            authorization: admin.authorization!,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(DEEP),
          },
        });
        requests.push(request);
        request.on('error', reject);
        request.on('response', (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            resolve({ status: response.statusCode!, body: JSON.parse(text), sent: prefix });
            request.destroy();
          });
        });
        request.write(DEEP.slice(0, prefix));
      });
    // Eight at once, each stopped after 2 KB (400 levels): none of them will ever finish.
    const deep = Array.from({ length: 8 }, () => unfinished(2000));
    const health = fetch(`${origin}/api/health`).then((res) => res.status);
    const answers = await Promise.all(deep);
    expect(await health).toBe(200);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('json_too_deep');
      expect(answer.sent).toBeLessThan(DEEP.length);
    }
    // And sent whole, eight at once alongside the probe, as the attack sent them.
    const whole = Array.from({ length: 8 }, () =>
      fetch(`${origin}${PASSWORD}`, {
        method: 'PUT',
        headers: { authorization: admin.authorization!, 'content-type': 'application/json' },
        body: DEEP,
      }).then(async (res) => ({
        status: res.status,
        code: ((await res.json()) as { code: string }).code,
      })),
    );
    const probe = fetch(`${origin}/api/health`).then((res) => res.status);
    expect(await Promise.all(whole)).toEqual(
      Array.from({ length: 8 }, () => ({ status: 400, code: 'json_too_deep' })),
    );
    expect(await probe).toBe(200);
  });
});

describe('the log', () => {
  it('never carries a failed query parameters', async () => {
    const secret = `secret-${randomBytes(6).toString('hex')}`;
    await database.db.execute(sql`alter table rota_robots rename to rota_robots_gone`);
    let res;
    try {
      res = await admin.post('/api/rota/robot/api/v1/create', {
        name: secret,
        executor: `run ${secret}`,
      });
    } finally {
      await database.db.execute(sql`alter table rota_robots_gone rename to rota_robots`);
    }
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain(secret);
    const failure = logLines.find((l) => l.includes(res.body.request_id) && l.includes('"err"'));
    expect(failure).toBeDefined();
    // The SQL text and the PostgreSQL code are there to diagnose; the values are not.
    expect(failure).toMatch(/insert into/i);
    expect(failure).toContain('42P01');
    expect(logLines.join('\n')).not.toContain(secret);
  });
});

describe('what a logged error keeps', () => {
  it("drops PostgreSQL's quoted values but keeps the names of things", async () => {
    const { scrubMessage } = await import('../src/http/loggable-error.js');
    expect(scrubMessage('invalid input syntax for type integer: "hunter2"')).toBe(
      'invalid input syntax for type integer: "…"',
    );
    expect(scrubMessage('value "99999999999" is out of range for type integer')).toBe(
      'value "…" is out of range for type integer',
    );
    expect(scrubMessage('duplicate key value violates unique constraint "users_email_key"')).toBe(
      'duplicate key value violates unique constraint "users_email_key"',
    );
    expect(scrubMessage('Failed query: select 1 where "a" = $1\nparams: hunter2')).toBe(
      'Failed query: select 1 where "a" = $1',
    );
  });
});
