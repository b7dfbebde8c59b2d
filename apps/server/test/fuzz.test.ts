import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, userClients, users } from '../src/db/schema/index.js';
import { dispatchTimingsFor } from '../src/modules/dispatch/dispatch-service.js';
import {
  badValues,
  describeBody,
  leafPaths,
  mapLeaves,
  prng,
  validValue,
  withAt,
  type JsonSchema,
  type Known,
} from './helpers/fuzz.js';
import { AGENT, RUN_API, runNow, simulatedAgent } from './helpers/engine.js';
import { multipart } from './helpers/multipart.js';
import { createRobot } from './helpers/robots.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * Bad input never gives a 500. Every operation of the OpenAPI document gets bodies
 * broken one place at a time (wrong types, NUL, huge strings, bad dates, out-of-range numbers,
 * missing fields) as the administrator, the agent protocol with a real agent token and the robot
 * API with a real run token. Any 5xx fails, naming the operation and the request.
 * Deterministic (seeded) and bounded: at most PER_OPERATION requests per operation.
 */
const SEED = 20260411;
const PER_OPERATION = 32;
/** 120 KB of JSON nested 20,000 deep: refused before any walk of it could overflow the stack. */
const DEEP = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);

type Operation = {
  method: string;
  path: string;
  security: string;
  body?: JsonSchema;
  multipart: boolean;
  pathParams: string[];
};

let t: TestApp;
let adminToken: string;
let agentToken: string;
let runToken: string;
const known: Known = {
  email: 'fuzz@example.com',
  password: 'Fuzz-password-1',
  confirm_password: 'Fuzz-password-1',
  color: '#123456',
  rota_api_url: 'https://example.com/api',
  db_url: 'db.example.com',
};
/** Per operation, fields its valid body must not have (a parameter has a value OR a password). */
const leftOut: [RegExp, string[]][] = [[/\/parameter\/api\/v1\/(create|update)$/, ['password']]];
let snapshot: Awaited<ReturnType<typeof adminState>>;
let operations: Operation[] = [];
/** Per resource base, the id of a row that exists (so update/show reach the database). */
const existingIds = new Map<string, number>();

beforeAll(async () => {
  // A claim whose wait is left out waits the server's longest wait: none here.
  t = await createTestApp({
    engine: { loop: false, timings: { ...dispatchTimingsFor(30), claimWaitSeconds: 0 } },
  });
  adminToken = await signIn(t.app, ADMIN.access, ADMIN.password);
  const admin = client(t.app, { token: adminToken });
  const vm = await createVm(admin, 'Fuzz VM');
  const robot = await createRobot(admin, 'Fuzz robot');
  const agent = await createAgent(admin, 'Fuzz agent', vm);
  agentToken = agent.token;
  const sim = simulatedAgent(t.app, agentToken);
  expect((await sim.hello()).status).toBe(200);
  const execution = await runNow(admin, { id: robot });
  const run = await sim.claim();
  expect(run?.execution_id).toBe(execution);
  runToken = run!.environment.ROTA_EXECUTION_TOKEN!;
  Object.assign(known, {
    rota_robots_id: robot,
    rota_vms_id: vm,
    rota_nodes_id: agent.rota_nodes_id,
    execution_id: execution,
    attempt: run!.attempt,
  });

  snapshot = await adminState();

  const docs = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(docs.statusCode).toBe(200);
  const document = docs.json() as {
    paths: Record<string, Record<string, Record<string, any>>>;
  };
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      operations.push({
        method: method.toUpperCase(),
        path,
        security: Object.keys(op.security?.[0] ?? {})[0] ?? 'none',
        body: op.requestBody?.content?.['application/json']?.schema,
        multipart: /multipart/i.test(`${op.summary ?? ''} ${op.description ?? ''}`),
        pathParams: (op.parameters ?? [])
          .filter((p: { in: string }) => p.in === 'path')
          .map((p: { name: string }) => p.name),
      });
    }
  }
  // The live-event stream never ends. First the robot API and the agent protocol, while their
  // tokens hold (a fuzzed id may delete or re-key the agent later): the robot API before the
  // finish that ends the run, logs and finish on the claimed run before a hello (an agent that
  // says hello again has restarted: its runs are handed on). Logout, which ends the session, last.
  operations = operations.filter((op) => !op.path.endsWith('/events/api/v1/stream'));
  const FIRST = [`${RUN_API}/`, `${AGENT}/logs`, `${AGENT}/finish`, `${AGENT}/`];
  const order = (op: Operation) => {
    if (op.path.endsWith('/logout')) return 9;
    const at = FIRST.findIndex((prefix) => op.path.startsWith(prefix));
    return at === -1 ? 5 : at;
  };
  operations.sort((a, b) => order(a) - order(b));

  for (const op of operations) {
    if (!op.path.endsWith('/index') || op.security !== 'bearerAuth') continue;
    const base = op.path.slice(0, -'/index'.length);
    const res = await admin.post(op.path, {});
    const row = res.body?.data?.[0] as Record<string, unknown> | undefined;
    const id = row && Object.entries(row).find(([k, v]) => /id$/.test(k) && typeof v === 'number');
    if (id) existingIds.set(base, id[1] as number);
  }
}, 60_000);

/** The seeded administrator's account, memberships and profiles, which the fuzz must not change. */
async function adminState() {
  const [account] = await t.db.select().from(users).where(eq(users.access, ADMIN.access));
  const memberships = await t.db
    .select()
    .from(userClients)
    .where(eq(userClients.users_id, account!.users_id));
  const own = await t.db
    .select()
    .from(profiles)
    .where(
      inArray(
        profiles.profiles_id,
        memberships.map((m) => m.profiles_id),
      ),
    );
  return { account: account!, memberships, profiles: own };
}

/** A fuzzed request may hit the administrator by id (`true` coerces to 1): put it back. */
async function restoreAdmin() {
  const now = await adminState();
  if (JSON.stringify(now) === JSON.stringify(snapshot)) return;
  const { users_id, created_at, updated_at, ...account } = snapshot.account;
  void created_at;
  void updated_at;
  await t.db.update(users).set(account).where(eq(users.users_id, users_id));
  for (const { profiles_id, name, permissions } of snapshot.profiles) {
    await t.db
      .update(profiles)
      .set({ name, permissions })
      .where(eq(profiles.profiles_id, profiles_id));
  }
  await t.db.delete(userClients).where(eq(userClients.users_id, users_id));
  await t.db.insert(userClients).values(
    snapshot.memberships.map(({ user_clients_id, ...m }) => {
      void user_clients_id;
      return m;
    }),
  );
  snapshot = await adminState();
}

afterAll(async () => {
  await t?.close();
});

function tokenFor(op: Operation) {
  if (op.security === 'agentToken') return agentToken;
  if (op.security === 'runToken') return runToken;
  if (op.security === 'bearerAuth') return adminToken;
  return undefined;
}

/** The valid body of an operation, with real ids where the field names say which. */
function baseBody(op: Operation): unknown {
  if (!op.body) return undefined;
  const base = op.path.slice(0, op.path.lastIndexOf('/'));
  // Deletes, cancels and the like aim at nothing, and so does every change to the
  // administrator's own profile, account and clients: the other operations need them as they are.
  const aimless =
    /\/(delete|delete_many|cancel|retry|restore|rotate_token|client_select|logout)$/.test(
      op.path,
    ) || /\/(user\/profile|user\/api|user\/client|rota\/client)\/v1$/.test(base);
  const id = aimless ? 2147483647 : (existingIds.get(base) ?? 1);
  const body = validValue(op.body, { ...known, id }) as Record<string, unknown>;
  for (const [pattern, fields] of leftOut) {
    if (pattern.test(op.path)) for (const field of fields) delete body[field];
  }
  return body;
}

type FuzzRequest = { url: string; body?: unknown; raw?: { payload: Buffer; type: string } };

function requestsFor(op: Operation, seed: number): FuzzRequest[] {
  const rng = prng(seed);
  const body = baseBody(op);
  const requests: FuzzRequest[] = [];
  let url = op.path;
  for (const param of op.pathParams) {
    url = url.replace(`{${param}}`, param === 'sha256' ? '0'.repeat(64) : 'fuzz.png');
  }
  requests.push({ url, body });
  // Whole-body breakage.
  for (const whole of [[], 'text', 123, null, { '\u0000': 1 }]) requests.push({ url, body: whole });
  requests.push({ url, raw: { payload: Buffer.from('{"broken": '), type: 'application/json' } });
  requests.push({ url, raw: { payload: Buffer.from(DEEP), type: 'application/json' } });
  if (body !== undefined) {
    requests.push({
      url,
      body: mapLeaves(body, (v) => (typeof v === 'string' ? `${v}\u0000` : v)),
    });
    requests.push({ url, body: mapLeaves(body, (v) => (typeof v === 'number' ? 2 ** 40 : v)) });
    requests.push({ url, body: mapLeaves(body, (v) => (typeof v === 'number' ? -(2 ** 31) : v)) });
  }
  // Path parameters: NUL, traversal, huge.
  for (const bad of ['%00', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(5000), '%E0%A4%A']) {
    let broken = op.path;
    for (const param of op.pathParams) broken = broken.replace(`{${param}}`, bad);
    if (op.pathParams.length) requests.push({ url: broken, body });
  }
  if (op.multipart) {
    const fields = {
      rota_robots_id: String(known.rota_robots_id),
      version: 'v\u00001',
      notes: 'n\u0000',
    };
    const junk = multipart(fields, { name: 'x\u0000.zip', data: Buffer.from('not a package') });
    requests.push({ url, raw: { payload: junk.payload, type: junk.contentType } });
    const avatar = multipart({}, { name: 'a.png', data: Buffer.from('junk'), field: 'avatar' });
    requests.push({ url, raw: { payload: avatar.payload, type: avatar.contentType } });
  }
  // One place at a time.
  const places = body === undefined ? [] : leafPaths(body);
  const single: FuzzRequest[] = [];
  for (const place of places) {
    for (const bad of badValues(undefined, rng))
      single.push({ url, body: withAt(body, place, bad) });
  }
  // NUL in every place gets in first; the rest fill the budget at random.
  const nul = single.filter((r) => JSON.stringify(r.body)?.includes('\\u0000'));
  const room = Math.max(0, PER_OPERATION - requests.length);
  const chosen = rng.sample(nul, Math.min(nul.length, Math.ceil(room / 2)));
  const rest = rng.sample(
    single.filter((r) => !chosen.includes(r)),
    room - chosen.length,
  );
  return [...requests, ...chosen, ...rest];
}

describe('OpenAPI fuzz: no input gives a 5xx', () => {
  it('covers every operation of the document', () => {
    expect(operations.length).toBeGreaterThan(100);
  });

  it('refuses a body nested 20,000 deep on every operation that reads one', async () => {
    const unexpected: string[] = [];
    for (const op of operations) {
      let url = op.path;
      for (const param of op.pathParams) url = url.replace(`{${param}}`, 'fuzz.png');
      const token = tokenFor(op);
      const response = await t.app.inject({
        method: op.method as 'GET',
        url,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          'content-type': 'application/json',
        },
        payload: DEEP,
      });
      const code = response.statusCode === 400 ? response.json().code : undefined;
      // Authentication (an onRequest hook) and the route's existence come before the body; a
      // GET or HEAD reads none; everything else reads it and stops at its depth.
      const fine =
        code === 'json_too_deep' ||
        (response.statusCode === 401 && op.security !== 'bearerAuth') ||
        response.statusCode === 404 ||
        (['GET', 'HEAD'].includes(op.method) && response.statusCode < 500);
      if (!fine) {
        unexpected.push(
          `${op.method} ${url} -> ${response.statusCode} ${response.body.slice(0, 200)}`,
        );
      }
      if (op.security === 'bearerAuth' && response.statusCode === 401) {
        adminToken = await signIn(t.app, ADMIN.access, ADMIN.password);
      }
    }
    expect(unexpected, unexpected.join('\n')).toEqual([]);
  }, 60_000);

  it('answers every broken request below 500', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const [index, op] of operations.entries()) {
      const started = performance.now();
      const all = requestsFor(op, SEED + index);
      const first = all[0];
      for (const request of all) {
        const token = tokenFor(op);
        const json = request.body === undefined ? undefined : JSON.stringify(request.body);
        const response = await t.app
          .inject({
            method: op.method as 'GET',
            url: request.url,
            headers: {
              ...(token ? { authorization: `Bearer ${token}` } : {}),
              ...(request.raw
                ? { 'content-type': request.raw.type }
                : json === undefined
                  ? {}
                  : { 'content-type': 'application/json' }),
            },
            ...(request.raw
              ? { payload: request.raw.payload }
              : json === undefined
                ? {}
                : { payload: json }),
          })
          // A body that breaks after its status went out (an export) is a failure too.
          .catch((error: Error) => ({ statusCode: 599, body: `broken body: ${error.message}` }));
        sent++;
        if (process.env.FUZZ_DEBUG && request === first) {
          console.log(
            `BASE ${op.method} ${request.url} ${response.statusCode} ${response.body.slice(0, 300)}`,
          );
        }
        if (response.statusCode >= 500) {
          failures.push(
            `${op.method} ${request.url} ${describeBody(request.body ?? '(raw)')} -> ` +
              `${response.statusCode} ${response.body.slice(0, 200)}`,
          );
        }
        // A fuzzed request may end the session (logout) or change its client: sign in again.
        if (op.security === 'bearerAuth' && response.statusCode === 401) {
          adminToken = await signIn(t.app, ADMIN.access, ADMIN.password);
        }
      }
      await restoreAdmin();
      if (process.env.FUZZ_DEBUG) {
        console.log(`${op.method} ${op.path} ${Math.round(performance.now() - started)} ms`);
      }
    }
    if (process.env.FUZZ_DEBUG) console.log(`SENT ${sent} requests`);
    expect(sent).toBeGreaterThan(operations.length * 20);
    expect(failures, failures.join('\n')).toEqual([]);
  }, 120_000);
});
