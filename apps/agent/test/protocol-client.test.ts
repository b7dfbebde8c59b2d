import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/logger.js';
import {
  ProtocolClient,
  ProtocolRejectedError,
  UnauthorizedError,
} from '../src/protocol-client.js';
import { FakeRotaServer, successfulFinish as finish } from './helpers/fake-server.js';

let server: FakeRotaServer;
beforeEach(async () => {
  server = await new FakeRotaServer().start();
});
afterEach(async () => {
  await server.close();
});

const client = (hooks: { onUnauthorized?: () => void; onReconnect?: () => void } = {}) =>
  new ProtocolClient({
    servers: [server.url],
    token: 'tok',
    logger: silentLogger,
    backoff: { initialMs: 10, maxMs: 40 },
    ...hooks,
  });
const signal = () => new AbortController().signal;

describe('ProtocolClient', () => {
  it('retries cut connections, 429 and 5xx until an answer, then says it is back', async () => {
    const answers = ['destroy', { status: 429 }, { status: 502 }] as const;
    let i = 0;
    server.handlers.finish = () =>
      answers[i++] ?? { status: 200, body: { data: { accepted: true } } };
    let reconnects = 0;
    const answer = await client({ onReconnect: () => (reconnects += 1) }).finish(finish, signal());
    expect(answer).toEqual({ accepted: true });
    expect(server.calls('finish')).toHaveLength(4);
    expect(reconnects).toBe(1);
  });

  it('does not retry a 401, and reports it', async () => {
    server.handlers.heartbeat = () => ({ status: 401 });
    let told = 0;
    await expect(
      client({ onUnauthorized: () => (told += 1) }).heartbeat(() => ({ running: [] }), signal()),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(told).toBe(1);
    expect(server.calls('heartbeat')).toHaveLength(1);
  });

  it('does not retry other 4xx', async () => {
    server.handlers.finish = () => ({
      status: 409,
      body: { code: 'superseded', message: 'attempt is no longer current' },
    });
    await expect(client().finish(finish, signal())).rejects.toThrow(ProtocolRejectedError);
    await expect(client().finish(finish, signal())).rejects.toThrow(
      'finish: the server answered 409 (superseded: attempt is no longer current)',
    );
    expect(server.calls('finish')).toHaveLength(2);
  });

  it('builds a heartbeat body per attempt', async () => {
    let held = 1;
    let first = true;
    server.handlers.heartbeat = () => {
      if (first) {
        first = false;
        held = 2;
        return { status: 503 };
      }
      return { status: 200, body: { data: { cancel: [9] } } };
    };
    const { cancel } = await client().heartbeat(
      () => ({
        running: Array.from({ length: held }, (_v, i) => ({ execution_id: i + 1, attempt: 1 })),
      }),
      signal(),
    );
    expect(cancel).toEqual([9]);
    expect(server.calls('heartbeat').map((r) => r.body.running.length)).toEqual([1, 2]);
  });

  it('gives up when its signal is aborted', async () => {
    const controller = new AbortController();
    // Aborted while it retries: as the second attempt reaches the server.
    server.handlers.finish = () => {
      if (server.calls('finish').length === 2) controller.abort(new Error('stopping'));
      return { status: 503 };
    };
    await expect(client().finish(finish, controller.signal)).rejects.toThrow('stopping');
    expect(server.calls('finish')).toHaveLength(2);
  });

  it('refuses a download path that would leave the server', async () => {
    await expect(client().download('//evil.example.com/x', signal())).rejects.toThrow(
      /bad download path/,
    );
    await expect(client().download('https://evil.example.com/x', signal())).rejects.toThrow(
      /bad download path/,
    );
    expect(server.requests).toEqual([]);
  });
});
