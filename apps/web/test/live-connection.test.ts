import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '@rota/contract';
import { createLiveConnection } from '../src/features/live/live-connection';
import { createLiveInvalidator, liveEventKeys } from '../src/features/live/live-invalidation';
import { createLiveServer } from './activity-fixtures';
import { mockFetch } from './http-mock';

const execution: LiveEvent = {
  type: 'execution',
  execution_id: 42,
  rota_robots_id: 1,
  status: 'processing',
};

function connect(options: Parameters<typeof createLiveConnection>[0] = {}) {
  const connection = createLiveConnection({
    getToken: () => 'token-9',
    initialDelayMs: 10,
    maxDelayMs: 40,
    ...options,
  });
  const events: LiveEvent[] = [];
  connection.subscribe((event) => events.push(event));
  return { connection, events };
}

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
  vi.useRealTimers();
});

describe('live connection', () => {
  it('opens the stream with the session token and delivers valid events', async () => {
    const server = createLiveServer();
    const { calls } = mockFetch(() => server.reply());
    const { connection, events } = connect();
    stop = connection.stop;
    connection.start('1');
    await vi.waitFor(() => expect(connection.getStatus()).toBe('open'));
    expect(calls[0]?.url).toBe('/api/rota/events/api/v1/stream');
    expect(calls[0]?.method).toBe('GET');
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer token-9');
    expect(calls[0]?.headers.get('Accept')).toBe('text/event-stream');

    server.send(execution);
    server.send({ type: 'log', execution_id: 42, rota_robots_id: 7, last_seq: 17 });
    await vi.waitFor(() => expect(events).toHaveLength(2));
    expect(events[0]).toEqual(execution);
    expect(events[1]).toEqual({ type: 'log', execution_id: 42, rota_robots_id: 7, last_seq: 17 });
  });

  it('skips events that are not JSON or not in the contract', async () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('event: execution\ndata: not json\n\n'));
        controller.enqueue(encoder.encode('event: execution\ndata: {"execution_id":"x"}\n\n'));
        controller.enqueue(
          encoder.encode(`event: agent\ndata: {"rota_nodes_id":3,"connectivity":"active"}\n\n`),
        );
      },
    });
    mockFetch(() => ({ status: 200, raw: body, headers: { 'Content-Type': 'text/event-stream' } }));
    const { connection, events } = connect();
    stop = connection.stop;
    connection.start('1');
    // The event name gives the type when the data leaves it out.
    await vi.waitFor(() =>
      expect(events).toEqual([{ type: 'agent', rota_nodes_id: 3, connectivity: 'active' }]),
    );
  });

  it('reconnects with backoff when the stream drops, and says so to reconnect listeners', async () => {
    let attempts = 0;
    const server = createLiveServer();
    mockFetch(() => {
      attempts += 1;
      // The first attempt fails, the second opens then ends at once, the third stays open.
      if (attempts === 1) throw new TypeError('network down');
      if (attempts === 2) {
        return {
          status: 200,
          raw: ': hello\n\n',
          headers: { 'Content-Type': 'text/event-stream' },
        };
      }
      return server.reply();
    });
    const { connection } = connect();
    stop = connection.stop;
    const reconnected = vi.fn();
    connection.subscribeReconnect(reconnected);
    connection.start('1');
    await vi.waitFor(() => expect(attempts).toBe(3));
    await vi.waitFor(() => expect(connection.getStatus()).toBe('open'));
    expect(reconnected).toHaveBeenCalledTimes(1);
  });

  it('does not take a JSON answer for a stream', async () => {
    let attempts = 0;
    mockFetch(() => {
      attempts += 1;
      return { status: 200, body: { data: [] } };
    });
    const { connection } = connect();
    stop = connection.stop;
    connection.start('1');
    await vi.waitFor(() => expect(attempts).toBeGreaterThan(1));
    expect(connection.getStatus()).toBe('reconnecting');
  });

  it('stops on 401 and ends the session once', async () => {
    // Fake timers: every reconnection the connection could have scheduled is run below.
    vi.useFakeTimers();
    const { calls } = mockFetch(() => ({
      status: 401,
      body: { code: 'session_expired', message: 'Sua sessão expirou.' },
    }));
    const onUnauthorized = vi.fn();
    const { connection } = connect({ onUnauthorized });
    stop = connection.stop;
    connection.start('1');
    await vi.waitFor(() => expect(connection.getStatus()).toBe('stopped'));
    await vi.runAllTimersAsync();
    expect(vi.getTimerCount()).toBe(0);
    expect(calls).toHaveLength(1);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).toHaveBeenCalledWith('Sua sessão expirou.');
  });

  it('does not connect without a session token', async () => {
    const { calls } = mockFetch(() => ({ status: 500 }));
    const { connection } = connect({ getToken: () => undefined });
    stop = connection.stop;
    connection.start('1');
    await vi.waitFor(() => expect(connection.getStatus()).toBe('stopped'));
    expect(calls).toHaveLength(0);
  });

  it('closes on stop and opens a new stream for another client', async () => {
    const server = createLiveServer();
    const { calls } = mockFetch(() => server.reply());
    const { connection } = connect();
    stop = connection.stop;
    connection.start('1');
    await vi.waitFor(() => expect(connection.getStatus()).toBe('open'));
    connection.start('1');
    expect(calls).toHaveLength(1);
    connection.start('2');
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    await vi.waitFor(() => expect(connection.getStatus()).toBe('open'));
    connection.stop();
    expect(connection.getStatus()).toBe('idle');
    // Opened again, the connection reads one stream: an event written to every stream served so
    // far arrives once, which it would not if the stopped one were still read.
    const events: LiveEvent[] = [];
    connection.subscribe((event) => events.push(event));
    connection.start('3');
    await vi.waitFor(() => expect(connection.getStatus()).toBe('open'));
    server.send(execution);
    await vi.waitFor(() => expect(events).toEqual([execution]));
    expect(calls).toHaveLength(3);
  });
});

describe('live invalidation', () => {
  it('maps each event to the queries it makes stale', () => {
    expect(liveEventKeys(execution)).toEqual([
      ['activity', 'list'],
      ['activity', 'detail', 42],
      ['activity', 'logs', 42],
      ['dashboard'],
    ]);
    expect(
      liveEventKeys({ type: 'log', execution_id: 42, rota_robots_id: 7, last_seq: 3 }),
    ).toEqual([
      ['activity', 'logs', 42],
      ['activity', 'detail', 42],
    ]);
    expect(
      liveEventKeys({ type: 'progress', execution_id: 42, rota_robots_id: 7, percent: 40 }),
    ).toEqual([
      ['activity', 'list'],
      ['activity', 'detail', 42],
    ]);
    expect(liveEventKeys({ type: 'agent', rota_nodes_id: 1, connectivity: 'inactive' })).toEqual([
      ['agents', 'list'],
      ['vms'],
      ['dashboard'],
    ]);
  });

  it('invalidates a burst of events once per query', () => {
    vi.useFakeTimers();
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue();
    const invalidator = createLiveInvalidator(queryClient, { delayMs: 30, maxWaitMs: 200 });
    for (let i = 0; i < 20; i += 1) {
      invalidator.handle({ ...execution, status: i % 2 ? 'processing' : 'success' });
      invalidator.handle({ type: 'log', execution_id: 42, rota_robots_id: 7, last_seq: i });
    }
    vi.advanceTimersByTime(29);
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(invalidate).toHaveBeenCalledTimes(4);
    // Nothing is left to fire later.
    vi.runAllTimers();
    expect(vi.getTimerCount()).toBe(0);
    expect(invalidate).toHaveBeenCalledTimes(4);
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      ['activity', 'list'],
      ['activity', 'detail', 42],
      ['activity', 'logs', 42],
      ['dashboard'],
    ]);
    invalidator.dispose();
  });

  it('does not wait past maxWait while events keep coming', () => {
    vi.useFakeTimers();
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue();
    const invalidator = createLiveInvalidator(queryClient, { delayMs: 50, maxWaitMs: 120 });
    // An event every 10 ms: the stream never stays quiet for delayMs.
    for (let at = 0; at < 120; at += 10) {
      expect(invalidate, `at ${at} ms`).not.toHaveBeenCalled();
      invalidator.handle({ type: 'log', execution_id: 1, rota_robots_id: 7, last_seq: at });
      vi.advanceTimersByTime(at === 110 ? 9 : 10);
    }
    expect(invalidate).not.toHaveBeenCalled();
    // maxWait after the first event, events still coming: the refresh goes out.
    vi.advanceTimersByTime(1);
    // Once each: the run's log tail and its page (last activity).
    expect(invalidate).toHaveBeenCalledTimes(2);
    invalidator.dispose();
  });
});
