import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/logger.js';
import { ProtocolClient, UnauthorizedError } from '../src/protocol-client.js';
import { FakeRotaServer, helloAnswer, successfulFinish as finish } from './helpers/fake-server.js';

/**
 * The stream: offered by hello, it carries heartbeats, claims and finishes; its
 * answers are judged as HTTP's; where it is refused or cut, the calls still get through.
 */
let server: FakeRotaServer;
let client: ProtocolClient;
let unauthorized = 0;
let reconnects = 0;

beforeEach(async () => {
  server = await new FakeRotaServer().start();
  server.handlers.hello = () => helloAnswer({ claim_is_heartbeat: true, stream: true });
  unauthorized = 0;
  reconnects = 0;
  client = new ProtocolClient({
    servers: [server.url],
    token: 'tok',
    logger: silentLogger,
    backoff: { initialMs: 10, maxMs: 40 },
    onUnauthorized: () => (unauthorized += 1),
    onReconnect: () => (reconnects += 1),
  });
});
afterEach(async () => {
  client.close();
  await server.close();
});

const signal = () => new AbortController().signal;
const hello = () => client.hello({ hostname: 'h', version: 'v', os: 'o' }, signal());
const heartbeat = () => client.heartbeat(() => ({ running: [] }), signal());
const via = (call: string) => server.calls(call).map((r) => r.via);

describe('the agent stream', () => {
  it('carries heartbeats, claims and finishes on one stream; hello and logs stay on HTTP', async () => {
    server.stream = 'accept';
    await hello();
    expect(client.streaming).toBe(true);
    await heartbeat();
    expect(await client.claim({ wait_seconds: 0 }, signal())).toBeNull();
    expect(await client.finish(finish, signal())).toEqual({ accepted: true });
    await client.logs({ execution_id: 1, attempt: 1, lines: [] }, signal());
    expect(via('heartbeat')).toEqual(['stream']);
    expect(via('claim')).toEqual(['stream']);
    expect(via('finish')).toEqual(['stream']);
    expect(via('hello')).toEqual(['http']);
    expect(via('logs')).toEqual(['http']);
    expect(server.upgrades).toEqual(['Bearer tok']);
  });

  it('is not tried when hello does not offer it (an older server)', async () => {
    server.stream = 'accept';
    server.handlers.hello = () => helloAnswer({ claim_is_heartbeat: true });
    await hello();
    await heartbeat();
    expect(via('heartbeat')).toEqual(['http']);
    expect(server.upgrades).toEqual([]);
  });

  it('falls back to HTTP for good when the upgrade is answered 404 (a proxy without it)', async () => {
    server.stream = 404;
    await hello();
    await heartbeat();
    await heartbeat();
    expect(via('heartbeat')).toEqual(['http', 'http']);
    expect(server.upgrades).toHaveLength(1);
    expect(client.streaming).toBe(false);
  });

  it('takes a 401 on the upgrade as the token refused', async () => {
    server.stream = 401;
    await hello();
    await expect(heartbeat()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(unauthorized).toBe(1);
    expect(server.calls('heartbeat')).toEqual([]);
  });

  it('retries an upgrade answered 503 (an instance stopping) until one is taken', async () => {
    server.stream = 503;
    await hello();
    const beat = heartbeat();
    await server.until(() => server.upgrades.length >= 2, 'a second upgrade');
    server.stream = 'accept';
    await beat;
    expect(via('heartbeat')).toEqual(['stream']);
    expect(reconnects).toBe(1);
  });

  it('sends again, on a new stream, a call whose stream was cut before its answer', async () => {
    server.stream = 'accept';
    let cut = false;
    server.handlers.finish = () => {
      if (!cut) {
        cut = true;
        return 'destroy';
      }
      return { status: 200, body: { data: { accepted: true } } };
    };
    await hello();
    expect(await client.finish(finish, signal())).toEqual({ accepted: true });
    expect(via('finish')).toEqual(['stream', 'stream']);
    expect(server.upgrades).toHaveLength(2);
    expect(reconnects).toBe(1);
  });

  it('cuts the stream when a claim is given up, so the server takes back what it was handing', async () => {
    server.stream = 'accept';
    server.handlers.claim = () => new Promise(() => {});
    await hello();
    await heartbeat();
    const giveUp = new AbortController();
    const claim = client.claim({ wait_seconds: 10 }, giveUp.signal);
    await server.until(() => server.calls('claim').length === 1, 'the claim');
    giveUp.abort(new Error('stopping'));
    await expect(claim).rejects.toThrow('stopping');
    await server.until(() => server.openStreams === 0, 'the stream to close');
    await heartbeat();
    expect(server.upgrades).toHaveLength(2);
  });
});
