import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
