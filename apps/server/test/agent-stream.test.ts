import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AGENT_STREAM_MAX_PENDING, AGENT_STREAM_PATH } from '@rota/contract';
import { executionOf, runNow, simulatedAgent } from './helpers/engine.js';
import { openStream } from './helpers/agent-stream.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * The agent stream: heartbeats, claims and finishes as messages on one WebSocket,
 * answered as over HTTP, with the same authentication, validation and delivery rules.
 */
let t: TestApp;
let c: Tenants;
let origin: string;
let vm: number;

beforeAll(async () => {
  t = await createTestApp({ engine: { loop: false } });
  c = await setUpTenants(t);
  vm = await createVm(c.admin, 'Stream VM');
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
});

async function until(predicate: () => boolean) {
  const deadline = Date.now() + 5_000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function nothingQueued() {
  await t.db.execute(
    sql`update rota_executions set status = 'cancelled', ended_at = now() where status in ('queued', 'processing')`,
  );
}

describe('opening a stream', () => {
  it('is offered by hello', async () => {
    const { token } = await createAgent(c.admin, 'Stream hello', vm);
    const hello = await simulatedAgent(t.app, token).hello();
    expect(hello.body.data.stream).toBe(true);
  });

  it('refuses a missing or unknown token (401) and any other path (404)', async () => {
    const { token } = await createAgent(c.admin, 'Stream refused', vm);
    await expect(openStream(origin, null)).rejects.toThrow('refused 401');
    await expect(openStream(origin, 'rota_agent_nope')).rejects.toThrow('refused 401');
    await expect(openStream(origin, token, '/api/rota/agent/api/v1/elsewhere')).rejects.toThrow(
      'refused 404',
    );
    await expect(openStream(origin, token, `${AGENT_STREAM_PATH}/`)).rejects.toThrow('refused 404');
  });

  it('refuses an upgrade that is no WebSocket handshake (400, in the caller’s language)', async () => {
    const { token } = await createAgent(c.admin, 'Stream handshake', vm);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${origin}${AGENT_STREAM_PATH}`, {
        headers: {
          authorization: `Bearer ${token}`,
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'accept-language': 'pt-BR',
          // No Sec-WebSocket-Key.
        },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      });
      request.on('upgrade', () => reject(new Error('upgraded')));
      request.on('error', reject);
      request.end();
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'invalid_input' });
    expect(JSON.parse(answer.body).message).toBe('Alguns campos não são válidos');
  });
});

describe('calls on a stream', () => {
  it('claims, heartbeats and finishes a run as over HTTP, and takes the next one with the finish', async () => {
    await nothingQueued();
    const robot = await createRobot(c.admin, 'Stream robot');
    const { token } = await createAgent(c.admin, 'Stream worker', vm);
    const stream = await openStream(origin, token);
    const first = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    const claimed = await stream.call('claim', { wait_seconds: 0 });
    expect(claimed.status).toBe(200);
    expect(claimed.body.data).toMatchObject({ execution_id: first, attempt: 1 });

    const beat = await stream.call('heartbeat', { running: [{ execution_id: first, attempt: 1 }] });
    expect(beat).toEqual({ status: 200, body: { data: { cancel: [], stop: [] } } });
    expect((await executionOf(c.admin, first)).status).toBe('processing');

    const second = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    const finished = await stream.call('finish', {
      execution_id: first,
      attempt: 1,
      status: 'success',
      exit_code: 0,
      message: 'done',
      claim: { wait_seconds: 0, max: 2 },
    });
    expect(finished.status).toBe(200);
    expect(finished.body.data.accepted).toBe(true);
    expect(finished.body.data.runs.map((r: { execution_id: number }) => r.execution_id)).toEqual([
      second,
    ]);
    expect(await executionOf(c.admin, first)).toMatchObject({ status: 'success', exit_code: 0 });
    // Sent again (an answer lost on the way): accepted, nothing changes.
    const again = await stream.call('finish', {
      execution_id: first,
      attempt: 1,
      status: 'application_error',
      exit_code: 1,
      message: null,
    });
    expect(again.status).toBe(200);
    expect((await executionOf(c.admin, first)).status).toBe('success');
    const batch = await stream.call('claim-batch', { wait_seconds: 0, max: 3 });
    expect(batch).toEqual({ status: 200, body: { data: { runs: [] } } });
    stream.socket.close();
  });

  it('answers a claim that waited its time out with "no work"', async () => {
    await nothingQueued();
    const { token } = await createAgent(c.admin, 'Stream patient', vm);
    const stream = await openStream(origin, token);
    const asked = Date.now();
    expect(await stream.call('claim-batch', { wait_seconds: 1, max: 2 })).toEqual({
      status: 200,
      body: { data: { runs: [] } },
    });
    expect(Date.now() - asked).toBeGreaterThanOrEqual(900);
    stream.socket.close();
  });

  it('wakes a held claim when a run is queued', async () => {
    await nothingQueued();
    const robot = await createRobot(c.admin, 'Stream waker');
    const { token } = await createAgent(c.admin, 'Stream waiter', vm);
    const stream = await openStream(origin, token);
    const held = stream.call('claim', { wait_seconds: 20 });
    // Heard while the claim is held: the stream answers calls in any order.
    expect((await stream.call('heartbeat', { running: [] })).status).toBe(200);
    const id = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    expect((await held).body.data.execution_id).toBe(id);
    stream.socket.close();
  });

  it('answers bad bodies 400 with field errors in the stream’s language, unknown calls 404', async () => {
    const { token } = await createAgent(c.admin, 'Stream bad input', vm);
    const stream = await openStream(origin, token);
    const bad = await stream.call('claim', { wait_seconds: 9999 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_input');
    expect(bad.body.errors[0].field).toBe('wait_seconds');
    const nul = await stream.call('finish', {
      execution_id: 2 ** 40,
      attempt: 1,
      status: 'success',
      exit_code: 0,
      message: null,
    });
    expect(nul.status).toBe(400);
    expect(nul.body.errors.map((e: { field: string }) => e.field)).toContain('execution_id');
    expect((await stream.call('logs', {})).status).toBe(404);
    expect((await stream.call('__proto__', {})).status).toBe(404);
    // A call with nothing to answer to closes the stream: the peer speaks something else.
    stream.socket.send(JSON.stringify({ op: 'claim', body: {} }));
    expect((await stream.closed).code).toBe(1008);
  });

  it('answers a failure 500 with a request id and nothing of what failed; the run can be finished again', async () => {
    await nothingQueued();
    const robot = await createRobot(c.admin, 'Stream failure robot');
    const { token } = await createAgent(c.admin, 'Stream failure', vm);
    const stream = await openStream(origin, token);
    const run = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    expect((await stream.call('claim', { wait_seconds: 0 })).body.data.execution_id).toBe(run);
    const finish = {
      execution_id: run,
      attempt: 1,
      status: 'success',
      exit_code: 0,
      message: 'done',
    };
    // The database refuses the finish's write, whatever statement it comes in.
    await t.db.execute(
      sql.raw(`create function rota_test_refuse() returns trigger language plpgsql as $$
        begin raise exception 'refused: secret-of-the-failure'; end $$`),
    );
    await t.db.execute(
      sql.raw(`create trigger rota_test_refuse before update on rota_executions
        for each row execute function rota_test_refuse()`),
    );
    let failed;
    try {
      failed = await stream.call('finish', finish);
    } finally {
      await t.db.execute(sql.raw('drop trigger rota_test_refuse on rota_executions'));
      await t.db.execute(sql.raw('drop function rota_test_refuse()'));
    }
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({
      code: 'internal_error',
      message: expect.any(String),
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(JSON.stringify(failed.body)).not.toContain('secret');
    expect((await executionOf(c.admin, run)).status).toBe('processing');
    // The stream stays open; the agent sends its result again and it is kept.
    expect((await stream.call('finish', finish)).status).toBe(200);
    expect(await executionOf(c.admin, run)).toMatchObject({ status: 'success', exit_code: 0 });
    stream.socket.close();
  });

  it('closes a stream that sends a message over 1 MB, or a binary one', async () => {
    const { token } = await createAgent(c.admin, 'Stream oversize', vm);
    const big = await openStream(origin, token);
    big.socket.send(JSON.stringify({ id: 1, op: 'heartbeat', body: { x: 'x'.repeat(1_100_000) } }));
    expect((await big.closed).code).toBe(1009);
    const binary = await openStream(origin, token);
    binary.socket.send(Buffer.from('{"id":1,"op":"heartbeat","body":{}}'));
    expect((await binary.closed).code).toBe(1003);
  });

  it('closes a stream that sends what is not JSON', async () => {
    const { token } = await createAgent(c.admin, 'Stream garbage', vm);
    const stream = await openStream(origin, token);
    stream.socket.send('{"id": 1, "op": ');
    expect((await stream.closed).code).toBe(1007);
  });

  it('takes a message nested to the limit and closes a stream that sends one nested deeper', async () => {
    const { token } = await createAgent(c.admin, 'Stream deep', vm);
    const stream = await openStream(origin, token);
    // At the limit: the message and its body nest 2 levels, the rest fills up to 64.
    const atLimit = JSON.parse('['.repeat(62) + ']'.repeat(62));
    expect((await stream.call('heartbeat', { running: [], x: atLimit })).status).toBe(200);
    const deep = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
    stream.socket.send(`{"id": 2, "op": "heartbeat", "body": ${deep}}`);
    expect(await stream.closed).toEqual({ code: 1007, reason: 'JSON nested too deeply' });
  });

  it(`answers 429 beyond ${AGENT_STREAM_MAX_PENDING} calls waiting at once`, async () => {
    await nothingQueued();
    const { token } = await createAgent(c.admin, 'Stream flood', vm);
    const stream = await openStream(origin, token);
    const held = Array.from({ length: AGENT_STREAM_MAX_PENDING }, () =>
      stream.call('claim', { wait_seconds: 1 }),
    );
    const over = await stream.call('heartbeat', { running: [] });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('too_many_requests');
    const answers = await Promise.all(held);
    expect(answers.every((a) => a.status === 200 && a.body.data === null)).toBe(true);
    expect((await stream.call('heartbeat', { running: [] })).status).toBe(200);
    stream.socket.close();
  });

  it('lets a retired token heartbeat and finish but never claim', async () => {
    await nothingQueued();
    const robot = await createRobot(c.admin, 'Stream retired robot');
    const { token, rota_nodes_id } = await createAgent(c.admin, 'Stream retiring', vm);
    const stream = await openStream(origin, token);
    const id = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    expect((await stream.call('claim', { wait_seconds: 0 })).body.data.execution_id).toBe(id);
    const rotated = await c.admin.post('/api/rota/node/api/v1/rotate_token', { id: rota_nodes_id });
    expect(rotated.status).toBe(200);
    // The stream opened with the old token: every call is checked again, as over HTTP.
    expect((await stream.call('claim', { wait_seconds: 0 })).status).toBe(401);
    expect(
      (await stream.call('heartbeat', { running: [{ execution_id: id, attempt: 1 }] })).status,
    ).toBe(200);
    const finished = await stream.call('finish', {
      execution_id: id,
      attempt: 1,
      status: 'success',
      exit_code: 0,
      message: null,
      claim: { wait_seconds: 0, max: 1 },
    });
    expect(finished).toEqual({ status: 200, body: { data: { accepted: true, runs: [] } } });
    stream.socket.close();
  });

  it('refuses another agent’s run (another client’s id too): nothing is applied', async () => {
    await nothingQueued();
    const robot = await createRobot(c.admin, 'Stream owner robot');
    const { token: mine } = await createAgent(c.admin, 'Stream owner', vm);
    const otherVm = await createVm(c.other, 'Stream other VM');
    const { token: theirs } = await createAgent(c.other, 'Stream other agent', otherVm);
    const owner = await openStream(origin, mine);
    const stranger = await openStream(origin, theirs);
    const id = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    expect((await owner.call('claim', { wait_seconds: 0 })).body.data.execution_id).toBe(id);
    const stolen = await stranger.call('finish', {
      execution_id: id,
      attempt: 1,
      status: 'success',
      exit_code: 0,
      message: null,
    });
    expect(stolen.status).not.toBe(500);
    expect(stolen.body.data?.accepted ?? false).toBe(false);
    expect((await executionOf(c.admin, id)).status).toBe('processing');
    const beat = await stranger.call('heartbeat', { running: [{ execution_id: id, attempt: 1 }] });
    expect(beat.body.data.cancel).toEqual([id]);
    owner.socket.close();
    stranger.socket.close();
  });
});

describe('a stream that goes', () => {
  it('takes no run while nobody holds it: a claim ended by the hang-up leaves the run queued', async () => {
    await nothingQueued();
    const robot = await createRobot(c.admin, 'Stream hang-up robot');
    const { token } = await createAgent(c.admin, 'Stream hang-up', vm);
    const { token: otherToken } = await createAgent(c.admin, 'Stream after hang-up', vm);
    const stream = await openStream(origin, token);
    const waiters = t.app.services.dispatch.waiters;
    const before = waiters.size;
    void stream.call('claim', { wait_seconds: 20 });
    await stream.call('heartbeat', { running: [] });
    // Parked among the waiters while it waits (once its first attempt, which registers a
    // waiter of its own while its statement runs, is over)…
    await until(() => waiters.size === before + 1);
    stream.socket.terminate();
    await stream.closed;
    // …and gone with its stream, its timer with it.
    await until(() => waiters.size === before);
    const id = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    const other = await openStream(origin, otherToken);
    expect((await other.call('claim', { wait_seconds: 0 })).body.data?.execution_id).toBe(id);
    other.socket.close();
  });
});

describe('a server that stops', () => {
  it('answers the claims it holds ("no work"), then closes its streams as going away', async () => {
    const own = await createTestApp({ engine: { loop: false } });
    try {
      const tenants = await setUpTenants(own);
      const ownVm = await createVm(tenants.admin, 'Stopping VM');
      const { token } = await createAgent(tenants.admin, 'Stopping agent', ownVm);
      await own.app.listen({ host: '127.0.0.1', port: 0 });
      const ownOrigin = `http://127.0.0.1:${(own.app.server.address() as AddressInfo).port}`;
      const stream = await openStream(ownOrigin, token);
      const held = stream.call('claim', { wait_seconds: 20 });
      await stream.call('heartbeat', { running: [] });
      const closing = own.app.close();
      expect(await held).toEqual({ status: 200, body: { data: null } });
      expect((await stream.closed).code).toBe(1001);
      await closing;
      await expect(openStream(ownOrigin, token)).rejects.toThrow();
    } finally {
      await own.close();
    }
  });
});
