import { randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Duplex } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  acceptTextWebSocket,
  isWebSocketHandshake,
  TextWebSocketServer,
  type TextWebSocket,
  type TextWebSocketHandler,
  type TextWebSocketOptions,
} from '../src/lib/text-websocket.js';

/**
 * The agent stream's WebSocket end, on `ws`, against `ws` as a client and against frames written
 * by hand: what the stream promises its owner (text in and out, close codes, limits, a close
 * heard once) and the bounds it keeps on a peer (handshakes that never finish, too many of them
 * from one address, a closing handshake left half done). How frames are parsed is `ws`'s and is
 * not tested here.
 */
const MAX = 1024;
const LOOPBACK = '127.0.0.1';

interface Upgrade {
  path: string;
  socket: Duplex;
}

/**
 * An HTTP server whose upgrades go through the module's functions (as the agent stream's do) or
 * through a `TextWebSocketServer` of its own options. The path says what the upgrade does: `/`
 * becomes an echoing connection, `/hold` stays unfinished (a token check that never ends),
 * `/refuse` is refused 401 (a bad token), `/after-end` is accepted once the client has hung up.
 */
interface TestServer {
  port: number;
  /** Unfinished handshakes from the loopback address (its own `TextWebSocketServer` only). */
  pending(): number;
  heard: Map<number, string[]>;
  connections: Map<number, TextWebSocket>;
  closes: Map<number, Promise<void>>;
  errors: unknown[];
  /** 'upgrade', with an Upgrade, once each upgrade has been handled. */
  events: EventEmitter;
  /** The last connection's id. */
  readonly last: number;
}

const started: { server: Server; sockets: Set<Duplex> }[] = [];

afterAll(async () => {
  for (const { server, sockets } of started) {
    // Upgraded sockets are no longer the HTTP server's to close; a failed test may leave one open.
    for (const socket of sockets) socket.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(options?: TextWebSocketOptions): Promise<TestServer> {
  const own = options ? new TextWebSocketServer(options) : null;
  const isHandshake = (request: IncomingMessage) =>
    own ? own.isHandshake(request) : isWebSocketHandshake(request);
  const accept = (
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    handler: TextWebSocketHandler,
  ) =>
    own
      ? own.accept(request, socket, head, handler)
      : acceptTextWebSocket(request, socket, head, handler, MAX);
  const heard = new Map<number, string[]>();
  const connections = new Map<number, TextWebSocket>();
  const closes = new Map<number, Promise<void>>();
  const errors: unknown[] = [];
  const events = new EventEmitter();
  const sockets = new Set<Duplex>();
  let last = 0;

  const connect = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    last += 1;
    const id = last;
    const messages: string[] = [];
    heard.set(id, messages);
    let closed!: () => void;
    closes.set(id, new Promise<void>((resolve) => (closed = resolve)));
    const connection = accept(request, socket, head, {
      onMessage(text) {
        messages.push(text);
        if (text === 'close please') connection.close(1001, 'as asked');
        else connection.send(`echo ${text}`);
      },
      onClose: () => closed(),
      onError: (error) => errors.push(error),
    });
    connections.set(id, connection);
  };

  const server = createServer((_request, response) => response.end());
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    const path = (request.url ?? '/').split('?')[0]!;
    if (!isHandshake(request)) {
      if (!socket.destroyed) {
        socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      }
    } else if (path === '/refuse') {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    } else if (path === '/after-end') {
      socket.once('end', () => connect(request, socket, head));
      socket.resume();
    } else if (path !== '/hold') {
      connect(request, socket, head);
    }
    events.emit('upgrade', { path, socket } satisfies Upgrade);
  });
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  started.push({ server, sockets });
  return {
    port: (server.address() as AddressInfo).port,
    pending: () => own?.pendingFrom(LOOPBACK) ?? 0,
    heard,
    connections,
    closes,
    errors,
    events,
    get last() {
      return last;
    },
  };
}

/** A `ws` client; each message it receives is kept. */
async function wsClient(server: TestServer, options: WebSocket.ClientOptions = {}) {
  const socket = new WebSocket(`ws://${LOOPBACK}:${server.port}/`, {
    perMessageDeflate: false,
    ...options,
  });
  const received: string[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    received.push(data.toString());
    waiters.shift()?.();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let taken = 0;
  const nextMessage = () => {
    const at = taken;
    taken += 1;
    return new Promise<string>((resolve) => {
      if (received.length > at) return resolve(received[at]!);
      waiters.push(() => {
        if (received.length > at) resolve(received[at]!);
      });
    });
  };
  return { socket, received, closed, nextMessage, id: server.last };
}

/** A client frame: masked, as RFC 6455 asks of a client. */
function frame(
  opcode: number,
  payload: Buffer | string,
  {
    fin = true,
    rsv = 0,
    length,
  }: Partial<{
    fin: boolean;
    rsv: number;
    /** A length to announce instead of the payload's own. */
    length: number;
  }> = {},
): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const announced = length ?? data.length;
  const lengthBytes = announced < 126 ? 0 : announced < 65_536 ? 2 : 8;
  const header = Buffer.alloc(2 + lengthBytes + 4);
  header[0] = (fin ? 0x80 : 0) | (rsv << 4) | opcode;
  header[1] = 0x80 | (lengthBytes === 0 ? announced : lengthBytes === 2 ? 126 : 127);
  if (lengthBytes === 2) header.writeUInt16BE(announced, 2);
  if (lengthBytes === 8) header.writeBigUInt64BE(BigInt(announced), 2);
  const mask = randomBytes(4);
  mask.copy(header, 2 + lengthBytes);
  const masked = Buffer.from(data.map((byte, i) => byte ^ mask[i & 3]!));
  return Buffer.concat([header, masked]);
}

interface ServerFrame {
  opcode: number;
  payload: Buffer;
}

/** The server's (unmasked) frames whole at the start of `buffer`, and what is left after them. */
function readFrames(buffer: Buffer, into: ServerFrame[]): Buffer {
  for (;;) {
    if (buffer.length < 2) return buffer;
    let length = buffer[1]! & 0x7f;
    let at = 2;
    if (length === 126) {
      if (buffer.length < 4) return buffer;
      length = buffer.readUInt16BE(2);
      at = 4;
    } else if (length === 127) {
      if (buffer.length < 10) return buffer;
      length = Number(buffer.readBigUInt64BE(2));
      at = 10;
    }
    if (buffer.length < at + length) return buffer;
    into.push({
      opcode: buffer[0]! & 0x0f,
      payload: Buffer.from(buffer.subarray(at, at + length)),
    });
    buffer = buffer.subarray(at + length);
  }
}

function closeOf(frames: ServerFrame[]) {
  const close = frames.find((f) => f.opcode === 0x8);
  if (!close) return null;
  return { code: close.payload.readUInt16BE(0), reason: close.payload.subarray(2).toString() };
}

/**
 * A raw TCP client that sends an upgrade request (and `head` after it) and reads the server's
 * answer and frames. It waits for the answer unless `answered` is false.
 */
async function rawClient(
  server: TestServer,
  {
    path = '/',
    head = Buffer.alloc(0),
    allowHalfOpen = false,
    answered = true,
  }: Partial<{ path: string; head: Buffer; allowHalfOpen: boolean; answered: boolean }> = {},
) {
  const socket = net.connect({ port: server.port, host: LOOPBACK, allowHalfOpen });
  const key = randomBytes(16).toString('base64');
  socket.write(
    Buffer.concat([
      Buffer.from(
        `GET ${path} HTTP/1.1\r\nHost: ${LOOPBACK}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
      head,
    ]),
  );
  let buffer: Buffer = Buffer.alloc(0);
  let answer: string | null = null;
  const frames: ServerFrame[] = [];
  let changed: (() => void) | null = null;
  let ended = false;
  let endedByServer = false;
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (answer === null) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      answer = buffer.subarray(0, end).toString();
      buffer = buffer.subarray(end + 4);
    }
    buffer = readFrames(buffer, frames);
    changed?.();
  });
  socket.on('end', () => {
    endedByServer = true;
    changed?.();
  });
  socket.on('close', () => {
    ended = true;
    changed?.();
  });
  socket.on('error', () => {});
  /** Waits for `predicate`, checked at each thing the socket does (and every 50 ms). */
  const until = async (predicate: () => boolean) => {
    const deadline = Date.now() + 3_000;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise<void>((resolve) => {
        changed = resolve;
        setTimeout(resolve, 50);
      });
    }
  };
  if (answered) await until(() => answer !== null || ended);
  return {
    socket,
    get answer() {
      return answer;
    },
    frames,
    id: server.last,
    until,
    get ended() {
      return ended;
    },
    /** The server ended its side (its FIN arrived). */
    get endedByServer() {
      return endedByServer;
    },
    /** The close frame the server sent: its code and reason. */
    async closeFrame() {
      await until(() => closeOf(frames) !== null);
      return closeOf(frames)!;
    },
    texts: () => frames.filter((f) => f.opcode === 0x1).map((f) => f.payload.toString()),
  };
}

/** The next upgrade the server handles, once it has handled it. */
function nextUpgrade(server: TestServer): Promise<Upgrade> {
  return once(server.events, 'upgrade').then(([upgrade]) => upgrade as Upgrade);
}

describe('a text WebSocket', async () => {
  const server = await serve();

  it('refuses a handshake without a valid key, version or upgrade', () => {
    const base = {
      method: 'GET',
      headers: {
        upgrade: 'websocket',
        'sec-websocket-key': randomBytes(16).toString('base64'),
        'sec-websocket-version': '13',
      },
    };
    const check = (change: object) =>
      isWebSocketHandshake({ ...base, ...change } as unknown as IncomingMessage);
    expect(check({})).toBe(true);
    expect(check({ method: 'POST' })).toBe(false);
    expect(check({ headers: { ...base.headers, upgrade: 'h2c' } })).toBe(false);
    expect(check({ headers: { ...base.headers, 'sec-websocket-key': 'short' } })).toBe(false);
    expect(check({ headers: { ...base.headers, 'sec-websocket-version': '12' } })).toBe(false);
    expect(check({ headers: { upgrade: 'websocket', 'sec-websocket-version': '13' } })).toBe(false);
  });

  it('carries text both ways with ws, small, medium, fragmented and large', async () => {
    const client = await wsClient(server);
    client.socket.send('hello');
    expect(await client.nextMessage()).toBe('echo hello');
    const medium = 'é'.repeat(200); // 400 bytes: a 16-bit length
    client.socket.send(medium);
    expect(await client.nextMessage()).toBe(`echo ${medium}`);
    client.socket.send('frag', { fin: false });
    client.socket.send('men', { fin: false });
    client.socket.send('ted', { fin: true });
    expect(await client.nextMessage()).toBe('echo fragmented');
    const big = 'x'.repeat(70_000);
    const connection = server.connections.get(client.id)!;
    const got = client.nextMessage();
    // The limit is on what arrives: the server may send more (a 64-bit length).
    connection.send(big);
    expect(await got).toBe(big);
    client.socket.close(1000, 'done');
    expect((await client.closed).code).toBe(1000);
    await server.closes.get(client.id);
    expect(server.heard.get(client.id)).toEqual(['hello', medium, 'fragmented']);
  });

  it('agrees no extension, even to a client that offers permessage-deflate', async () => {
    const client = await wsClient(server, { perMessageDeflate: true });
    expect(client.socket.extensions).toBe('');
    client.socket.send('plain');
    expect(await client.nextMessage()).toBe('echo plain');
    client.socket.close(1000);
    await server.closes.get(client.id);
  });

  it('reads frames that came in the same packet as the handshake', async () => {
    const client = await rawClient(server, {
      head: Buffer.concat([frame(0x1, 'early'), frame(0x1, 'bird')]),
    });
    expect(client.answer).toContain('HTTP/1.1 101 Switching Protocols');
    await client.until(() => client.texts().length === 2);
    expect(client.texts()).toEqual(['echo early', 'echo bird']);
    client.socket.destroy();
    await server.closes.get(client.id);
  });

  it('answers a close frame with the same code and ends the socket', async () => {
    const client = await rawClient(server);
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(4000);
    client.socket.write(frame(0x8, Buffer.concat([payload, Buffer.from('bye')])));
    expect((await client.closeFrame()).code).toBe(4000);
    await client.until(() => client.ended);
    await server.closes.get(client.id);
  });

  it('closes on its own side and ends the socket once the peer answers', async () => {
    const client = await wsClient(server);
    const startedAt = Date.now();
    client.socket.send('close please');
    expect(await client.closed).toEqual({ code: 1001, reason: 'as asked' });
    await server.closes.get(client.id);
    // The peer's answer ended it, not the cut 5 s after our close frame.
    expect(Date.now() - startedAt).toBeLessThan(4_000);
    const connection = server.connections.get(client.id)!;
    expect(connection.open).toBe(false);
    const sent = await new Promise<Error | null | undefined>((resolve) =>
      connection.send('too late', resolve),
    );
    expect(sent).toBeInstanceOf(Error);
  });

  it('reads no message after its own close frame; the peer’s answer ends the socket', async () => {
    const client = await rawClient(server);
    client.socket.write(frame(0x1, 'close please'));
    expect(await client.closeFrame()).toEqual({ code: 1001, reason: 'as asked' });
    // A data frame sent meanwhile is not delivered; the close frame that answers ends the socket
    // (before the 5 s cut: `until` gives up after 3 s).
    client.socket.write(Buffer.concat([frame(0x1, 'late'), frame(0x8, Buffer.from([0x03, 0xe9]))]));
    await client.until(() => client.ended);
    await server.closes.get(client.id);
    expect(server.heard.get(client.id)).toEqual(['close please']);
  });

  const refusals: [string, () => Buffer, number][] = [
    ['a compressed frame (no extension was agreed)', () => frame(0x1, 'hi', { rsv: 4 }), 1002],
    ['a binary message', () => frame(0x2, 'data'), 1003],
    ['invalid UTF-8', () => frame(0x1, Buffer.from([0x68, 0xc3, 0x28])), 1007],
    [
      'invalid UTF-8 across fragments',
      () =>
        Buffer.concat([
          frame(0x1, Buffer.from([0xe2, 0x82]), { fin: false }),
          frame(0x0, Buffer.from([0x28])),
        ]),
      1007,
    ],
    [
      'a message in more than 1,024 fragments, empty ones too',
      () =>
        Buffer.concat([
          frame(0x1, '', { fin: false }),
          ...Array.from({ length: 1_024 }, () => frame(0x0, '', { fin: false })),
        ]),
      1008,
    ],
    ['a message over the limit', () => frame(0x1, 'x'.repeat(MAX + 1)), 1009],
    [
      'fragments over the limit together',
      () => Buffer.concat([frame(0x1, 'x'.repeat(MAX), { fin: false }), frame(0x0, 'x')]),
      1009,
    ],
    // Only the header: refused before any of the 2^53 bytes could arrive.
    [
      'a 64-bit length of 2^53 - 1',
      () => frame(0x1, '', { length: Number.MAX_SAFE_INTEGER }).subarray(0, 14),
      1009,
    ],
  ];
  it.each(refusals.map(([what, bytes, code]) => [what, code, bytes] as const))(
    'closes on %s (%i) and delivers nothing after it',
    async (_what, code, bytes) => {
      const client = await rawClient(server);
      client.socket.write(Buffer.concat([bytes(), frame(0x1, 'after')]));
      expect((await client.closeFrame()).code).toBe(code);
      client.socket.end();
      await server.closes.get(client.id);
      expect(server.heard.get(client.id)).toEqual([]);
    },
  );

  it('ends in a close, never a thrown or reported error, whatever garbage arrives (seeded)', async () => {
    let seed = 18;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 40; round += 1) {
      const client = await rawClient(server);
      const parts: Buffer[] = [];
      for (let i = 0; i < 6; i += 1) {
        const kind = random();
        if (kind < 0.4)
          parts.push(
            frame(Math.floor(random() * 16), 'x'.repeat(Math.floor(random() * 200)), {
              fin: random() < 0.7,
              rsv: random() < 0.1 ? 1 : 0,
            }),
          );
        else
          parts.push(
            Buffer.from(
              Array.from({ length: Math.floor(random() * 64) }, () => Math.floor(random() * 256)),
            ),
          );
      }
      client.socket.write(Buffer.concat(parts));
      client.socket.end();
      await server.closes.get(client.id);
    }
    expect(server.errors).toEqual([]);
  });
});

describe('what a peer may hold', async () => {
  const SHORT_MS = 300;
  const quick = await serve({
    maxPayload: MAX,
    handshakeTimeoutMs: SHORT_MS,
    closeTimeoutMs: SHORT_MS,
  });

  it('cuts a peer that keeps its side open after the closing handshake', async () => {
    const client = await rawClient(quick, { allowHalfOpen: true });
    const startedAt = Date.now();
    client.socket.write(frame(0x8, Buffer.from([0x03, 0xe8])));
    expect((await client.closeFrame()).code).toBe(1000);
    // Our side ended at once; the peer never ends its own, and is cut when the close times out.
    await client.until(() => client.endedByServer);
    await quick.closes.get(client.id);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(SHORT_MS - 10);
    client.socket.destroy();
  });

  it('cuts a peer that never answers its close frame', async () => {
    const client = await rawClient(quick, { allowHalfOpen: true });
    const startedAt = Date.now();
    client.socket.write(frame(0x1, 'close please'));
    expect((await client.closeFrame()).code).toBe(1001);
    await quick.closes.get(client.id);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(SHORT_MS - 10);
    expect(quick.connections.get(client.id)!.open).toBe(false);
    client.socket.destroy();
  });

  it('cuts a handshake that is never completed, and counts it no longer', async () => {
    const upgraded = nextUpgrade(quick);
    const startedAt = Date.now();
    const client = await rawClient(quick, { path: '/hold', answered: false });
    const { socket } = await upgraded;
    expect(quick.pending()).toBe(1);
    await once(socket, 'close');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(SHORT_MS - 10);
    expect(quick.pending()).toBe(0);
    await client.until(() => client.ended);
    expect(client.answer).toBeNull();
  });

  it('cuts a refused handshake whose peer keeps the socket open', async () => {
    const upgraded = nextUpgrade(quick);
    const client = await rawClient(quick, { path: '/refuse', allowHalfOpen: true });
    const { socket } = await upgraded;
    expect(client.answer).toContain('401 Unauthorized');
    await client.until(() => client.endedByServer);
    // Still counted: the socket stays until the peer closes it or the handshake's time is up.
    expect(quick.pending()).toBe(1);
    await once(socket, 'close');
    expect(quick.pending()).toBe(0);
    client.socket.destroy();
  });

  it('tells its owner of a close when the client hung up before the handshake was completed', async () => {
    const upgraded = nextUpgrade(quick);
    const before = quick.last;
    const client = await rawClient(quick, { path: '/after-end', answered: false });
    client.socket.end();
    await upgraded;
    await client.until(() => client.ended);
    expect(quick.last).toBe(before + 1);
    await quick.closes.get(quick.last);
    expect(client.answer).toBeNull();
    expect(quick.connections.get(quick.last)!.open).toBe(false);
    expect(quick.pending()).toBe(0);
  });

  it('refuses a handshake past the unfinished ones one address may hold (503)', async () => {
    const capped = await serve({ maxPayload: MAX, maxPendingPerAddress: 2 });
    const held = [];
    for (let i = 0; i < 2; i += 1) {
      const upgraded = nextUpgrade(capped);
      const client = await rawClient(capped, { path: '/hold', answered: false });
      held.push({ client, socket: (await upgraded).socket });
    }
    expect(capped.pending()).toBe(2);

    const refused = await rawClient(capped, { path: '/hold' });
    expect(refused.answer).toContain('HTTP/1.1 503 Service Unavailable');
    await refused.until(() => refused.ended);
    expect(capped.pending()).toBe(2);

    // One held handshake ends (the server's side closes it: a paused socket would not notice its
    // client hang up before its time is up): the address may start another, and a completed one
    // is not held.
    held[0]!.socket.destroy();
    await once(held[0]!.socket, 'close');
    expect(capped.pending()).toBe(1);
    const client = await wsClient(capped);
    client.socket.send('in');
    expect(await client.nextMessage()).toBe('echo in');
    expect(capped.pending()).toBe(1);
    client.socket.close(1000);
    await capped.closes.get(client.id);
    held[1]!.socket.destroy();
    await once(held[1]!.socket, 'close');
    expect(capped.pending()).toBe(0);
    for (const { client: heldClient } of held) heldClient.socket.destroy();
  });

  it('closes a connection holding a frame in too many small chunks (1008)', async () => {
    // A Duplex, so that each chunk arrives as written, which TCP would not promise.
    const written: Buffer[] = [];
    let wrote: (() => void) | null = null;
    const socket = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk);
        wrote?.();
        callback();
      },
    });
    const request = {
      method: 'GET',
      url: '/',
      headers: {
        upgrade: 'websocket',
        'sec-websocket-key': randomBytes(16).toString('base64'),
        'sec-websocket-version': '13',
      },
    } as unknown as IncomingMessage;
    const messages: string[] = [];
    let closed!: () => void;
    const closes = new Promise<void>((resolve) => (closed = resolve));
    // The defaults: the 1 MB limit lets a 5,000-byte frame through, the chunks do not.
    const connection = new TextWebSocketServer().accept(request, socket, Buffer.alloc(0), {
      onMessage: (text) => messages.push(text),
      onClose: () => closed(),
    });
    expect(connection.open).toBe(true);
    const bytes = frame(0x1, 'x'.repeat(5_000));
    socket.push(bytes.subarray(0, 8)); // header, 16-bit length and mask
    for (let at = 8; at < 8 + 4_097; at += 1) socket.push(bytes.subarray(at, at + 1));
    const frames: ServerFrame[] = [];
    const closeFrame = () => {
      const all = Buffer.concat(written);
      frames.length = 0;
      readFrames(all.subarray(all.indexOf('\r\n\r\n') + 4), frames);
      return closeOf(frames);
    };
    while (closeFrame() === null) await new Promise<void>((resolve) => (wrote = resolve));
    expect(closeFrame()!.code).toBe(1008);
    socket.destroy();
    await closes;
    expect(messages).toEqual([]);
  });
});
