import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  acceptTextWebSocket,
  isWebSocketHandshake,
  type TextWebSocket,
} from '../src/lib/text-websocket.js';

/**
 * The agent stream's own WebSocket end, against `ws` as a client and against frames
 * written byte by byte: fragments, control frames, every refusal RFC 6455 asks of a server, and
 * garbage that must end in a close, never in a thrown error.
 */
const MAX = 1024;
let server: Server;
let port: number;
/** What the server heard, per connection, in order; and each connection's end. */
const heard = new Map<number, string[]>();
const connections = new Map<number, TextWebSocket>();
const closes = new Map<number, Promise<void>>();
const errors: unknown[] = [];
const upgraded = new Set<Duplex>();
let next = 0;

beforeAll(async () => {
  server = createServer((_request, response) => response.end());
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isWebSocketHandshake(request)) {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    upgraded.add(socket);
    next += 1;
    const n = next;
    const messages: string[] = [];
    heard.set(n, messages);
    let closed!: () => void;
    closes.set(n, new Promise<void>((resolve) => (closed = resolve)));
    const connection = acceptTextWebSocket(
      request,
      socket,
      head,
      {
        onMessage(text) {
          messages.push(text);
          if (text === 'close please') connection.close(1001, 'as asked');
          else connection.send(`echo ${text}`);
        },
        onClose: () => closed(),
        onError: (error) => errors.push(error),
      },
      MAX,
    );
    connections.set(n, connection);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  // Upgraded sockets are no longer the HTTP server's to close; a failed test may leave one open.
  for (const socket of upgraded) socket.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A `ws` client; each message it receives is kept. */
async function wsClient() {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: false });
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
  return { socket, received, closed, nextMessage, id: next };
}

/** A client frame: masked, as RFC 6455 asks of a client, unless `unmasked`. */
function frame(
  opcode: number,
  payload: Buffer | string,
  {
    fin = true,
    rsv = 0,
    unmasked = false,
    length,
  }: Partial<{
    fin: boolean;
    rsv: number;
    unmasked: boolean;
    /** A length to announce instead of the payload's own. */
    length: number;
  }> = {},
): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const announced = length ?? data.length;
  const lengthBytes = announced < 126 ? 0 : announced < 65_536 ? 2 : 8;
  const header = Buffer.alloc(2 + lengthBytes + (unmasked ? 0 : 4));
  header[0] = (fin ? 0x80 : 0) | (rsv << 4) | opcode;
  header[1] =
    (unmasked ? 0 : 0x80) | (lengthBytes === 0 ? announced : lengthBytes === 2 ? 126 : 127);
  if (lengthBytes === 2) header.writeUInt16BE(announced, 2);
  if (lengthBytes === 8) header.writeBigUInt64BE(BigInt(announced), 2);
  if (unmasked) return Buffer.concat([header, data]);
  const mask = randomBytes(4);
  mask.copy(header, 2 + lengthBytes);
  const masked = Buffer.from(data.map((byte, i) => byte ^ mask[i & 3]!));
  return Buffer.concat([header, masked]);
}

interface ServerFrame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
}

/** A raw TCP client past the handshake, reading the server's (unmasked) frames. */
async function rawClient(withHandshake: Buffer = Buffer.alloc(0), allowHalfOpen = false) {
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen });
  const key = randomBytes(16).toString('base64');
  socket.write(
    Buffer.concat([
      Buffer.from(
        `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
      withHandshake,
    ]),
  );
  let buffer = Buffer.alloc(0);
  let handshake: string | null = null;
  const frames: ServerFrame[] = [];
  let changed: (() => void) | null = null;
  let ended = false;
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (handshake === null) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      handshake = buffer.subarray(0, end).toString();
      buffer = buffer.subarray(end + 4);
    }
    for (;;) {
      if (buffer.length < 2) break;
      let length = buffer[1]! & 0x7f;
      let at = 2;
      if (length === 126) {
        length = buffer.readUInt16BE(2);
        at = 4;
      } else if (length === 127) {
        length = Number(buffer.readBigUInt64BE(2));
        at = 10;
      }
      if (buffer.length < at + length) break;
      frames.push({
        fin: (buffer[0]! & 0x80) !== 0,
        opcode: buffer[0]! & 0x0f,
        payload: Buffer.from(buffer.subarray(at, at + length)),
      });
      buffer = buffer.subarray(at + length);
    }
    changed?.();
  });
  socket.on('close', () => {
    ended = true;
    changed?.();
  });
  socket.on('error', () => {});
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
  await until(() => handshake !== null);
  const id = next;
  return {
    socket,
    handshake: handshake as unknown as string,
    key,
    frames,
    id,
    until,
    get ended() {
      return ended;
    },
    /** The close frame the server sent: its code and reason. */
    async closeFrame() {
      await until(() => frames.some((f) => f.opcode === 0x8));
      const close = frames.find((f) => f.opcode === 0x8)!;
      return { code: close.payload.readUInt16BE(0), reason: close.payload.subarray(2).toString() };
    },
    texts: () => frames.filter((f) => f.opcode === 0x1).map((f) => f.payload.toString()),
  };
}

describe('a text WebSocket', () => {
  it('answers the handshake with the key’s accept value, as RFC 6455 computes it', async () => {
    const client = await rawClient();
    const accept = createHash('sha1')
      .update(`${client.key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    expect(client.handshake).toContain('HTTP/1.1 101 Switching Protocols');
    expect(client.handshake).toContain(`Sec-WebSocket-Accept: ${accept}`);
    client.socket.destroy();
  });

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

  it('carries text both ways with ws, small, medium (16-bit length) and fragmented', async () => {
    const client = await wsClient();
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
    const server = connections.get(client.id)!;
    const got = client.nextMessage();
    server.send(big); // a 64-bit length, from the server
    expect(await got).toBe(big);
    client.socket.close(1000, 'done');
    expect((await client.closed).code).toBe(1000);
    await closes.get(client.id);
    expect(heard.get(client.id)).toEqual(['hello', medium, 'fragmented']);
  });

  it('reads frames however the bytes are split, with pings answered in between', async () => {
    const client = await rawClient();
    const bytes = Buffer.concat([
      frame(0x1, 'one'),
      frame(0x1, 'tw', { fin: false }),
      frame(0x9, 'are you there'),
      frame(0x0, 'o'),
      frame(0x1, 'y'.repeat(300)),
      frame(0xa, 'unasked pong'),
      frame(0x1, ''),
    ]);
    // One byte at a time, then random cuts: every split must read the same.
    for (let i = 0; i < bytes.length; i += 1) {
      client.socket.write(bytes.subarray(i, i + 1));
      if (i % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await client.until(() => client.texts().length === 4);
    expect(heard.get(client.id)).toEqual(['one', 'two', 'y'.repeat(300), '']);
    const pong = client.frames.find((f) => f.opcode === 0xa)!;
    expect(pong.payload.toString()).toBe('are you there');
    expect(client.texts()).toEqual(['echo one', 'echo two', `echo ${'y'.repeat(300)}`, 'echo ']);
    client.socket.destroy();
  });

  it('reads frames that came in the same packet as the handshake', async () => {
    const client = await rawClient(Buffer.concat([frame(0x1, 'early'), frame(0x1, 'bird')]));
    await client.until(() => client.texts().length === 2);
    expect(client.texts()).toEqual(['echo early', 'echo bird']);
    client.socket.destroy();
  });

  it('answers a close frame with the same code and ends the socket', async () => {
    const client = await rawClient();
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(4000);
    client.socket.write(frame(0x8, Buffer.concat([payload, Buffer.from('bye')])));
    expect((await client.closeFrame()).code).toBe(4000);
    await client.until(() => client.ended);
    await closes.get(client.id);
  });

  it('cuts a peer that keeps its side open after the closing handshake', async () => {
    const client = await rawClient(Buffer.alloc(0), true);
    client.socket.write(frame(0x8, Buffer.from([0x03, 0xe8])));
    expect((await client.closeFrame()).code).toBe(1000);
    // Our side ended; the peer never ends its own, and is cut 5 s later.
    let cut = false;
    void closes.get(client.id)!.then(() => (cut = true));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(cut).toBe(false);
    await closes.get(client.id);
    client.socket.destroy();
  });

  it('closes on its own side and ends the socket once the peer answers', async () => {
    const client = await wsClient();
    const started = Date.now();
    client.socket.send('close please');
    expect(await client.closed).toEqual({ code: 1001, reason: 'as asked' });
    await closes.get(client.id);
    // The peer's answer ended it, not the 5 s cut.
    expect(Date.now() - started).toBeLessThan(4_000);
    const sent = await new Promise<Error | null | undefined>((resolve) =>
      connections.get(client.id)!.send('too late', resolve),
    );
    expect(sent).toBeInstanceOf(Error);
  });

  it('ends the socket itself when the peer answers its close frame', async () => {
    const client = await rawClient();
    client.socket.write(frame(0x1, 'close please'));
    expect(await client.closeFrame()).toEqual({ code: 1001, reason: 'as asked' });
    // A data frame sent meanwhile is not read; the close frame that answers ends the socket
    // (before the 5 s cut: `until` gives up after 3 s).
    client.socket.write(Buffer.concat([frame(0x1, 'late'), frame(0x8, Buffer.from([0x03, 0xe9]))]));
    await client.until(() => client.ended);
    expect(heard.get(client.id)).toEqual(['close please']);
  });

  const refusals: [string, () => Buffer, number][] = [
    ['an unmasked frame', () => frame(0x1, 'hi', { unmasked: true }), 1002],
    ['a reserved bit (no extension was agreed)', () => frame(0x1, 'hi', { rsv: 4 }), 1002],
    ['an unknown opcode', () => frame(0x3, 'hi'), 1002],
    ['an unknown control opcode', () => frame(0xb, ''), 1002],
    ['a continuation of nothing', () => frame(0x0, 'hi'), 1002],
    [
      'a new message inside a fragmented one',
      () => Buffer.concat([frame(0x1, 'a', { fin: false }), frame(0x1, 'b')]),
      1002,
    ],
    ['a fragmented ping', () => frame(0x9, 'x', { fin: false }), 1002],
    ['a ping over 125 bytes', () => frame(0x9, 'p'.repeat(126)), 1002],
    ['a close frame of one byte', () => frame(0x8, Buffer.from([3])), 1002],
    ['a close code no peer may send', () => frame(0x8, Buffer.from([0x03, 0xed])), 1002],
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
    ['a message over the limit', () => frame(0x1, 'x'.repeat(MAX + 1)), 1009],
    [
      'fragments over the limit together',
      () => Buffer.concat([frame(0x1, 'x'.repeat(MAX), { fin: false }), frame(0x0, 'x')]),
      1009,
    ],
    [
      'a message in more than 1,024 fragments, empty ones too',
      () =>
        Buffer.concat([
          frame(0x1, '', { fin: false }),
          ...Array.from({ length: 1_024 }, () => frame(0x0, '', { fin: false })),
        ]),
      1009,
    ],
    // Only the header: refused before any of the 2^63 bytes could arrive.
    [
      'a 64-bit length of 2^63 - 1',
      () => frame(0x1, '', { length: Number.MAX_SAFE_INTEGER }).subarray(0, 14),
      1009,
    ],
  ];
  it.each(refusals.map(([what, bytes, code]) => [what, code, bytes] as const))(
    'closes on %s (%i) and reads nothing after it',
    async (_what, code, bytes) => {
      const client = await rawClient();
      client.socket.write(Buffer.concat([bytes(), frame(0x1, 'after')]));
      expect((await client.closeFrame()).code).toBe(code);
      expect(heard.get(client.id)).not.toContain('after');
      client.socket.end();
      await closes.get(client.id);
    },
  );

  it('ends in a close, never a thrown error, whatever garbage arrives (seeded)', async () => {
    let seed = 18;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 40; round += 1) {
      const client = await rawClient();
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
      await closes.get(client.id);
    }
    expect(errors).toEqual([]);
  });
});
