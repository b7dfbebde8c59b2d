import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * The server's end of a WebSocket (RFC 6455) that carries text messages, on the upgraded socket
 * itself. `ws` gives each connection a WebSocket emitter, a Sender and a Receiver that
 * is a Writable stream with its own state and event map, where this keeps one record and four
 * listeners that are module functions: an idle agent's live heap went from 3.9 to 2.2 KB (heap
 * snapshots, docs/performance.md). It speaks what the agent
 * stream needs and nothing more: no extensions (a compressed frame is refused), no subprotocol,
 * text messages in, text messages out; a binary message closes the connection (1003).
 */

/** What a connection tells its owner (an object, so that a connection needs no closures). */
export interface TextWebSocketHandler {
  /** A whole text message, valid UTF-8. */
  onMessage(text: string): void;
  /** The socket closed (once), however it closed. */
  onClose(): void;
  /** A socket error, before `onClose`. */
  onError?(error: Error): void;
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const KEY = /^[+/0-9A-Za-z]{22}==$/;
/**
 * A message's fragments at most: each costs us a Buffer, so a peer sending 1-byte (or empty)
 * fragments could otherwise hold a million of them for 7 bytes each. `ws` as a client sends a
 * message as one frame.
 */
const MAX_FRAGMENTS = 1_024;
/** How long a closing handshake may wait for the peer's close frame before the socket is cut. */
const CLOSE_WAIT_MS = 5_000;

const OPCODE_CONTINUATION = 0x0;
const OPCODE_TEXT = 0x1;
const OPCODE_BINARY = 0x2;
const OPCODE_CLOSE = 0x8;
const OPCODE_PING = 0x9;
const OPCODE_PONG = 0xa;

/** Messages go both ways. */
const OPEN = 0;
/** We sent a close frame and read on only for the peer's. */
const CLOSE_SENT = 1;
/** Nothing more is read or sent; the socket is ending. */
const ENDING = 2;
/** The socket closed. */
const CLOSED = 3;

const connectionOf = Symbol('rota.textWebSocket');
type Upgraded = Duplex & { [connectionOf]?: TextWebSocket };

/**
 * Whether a handshake can become a WebSocket: the checks `ws` makes of an upgrade (RFC 6455
 * §4.2.1), so a wrong client is refused before anything else is spent on it.
 */
export function isWebSocketHandshake(request: IncomingMessage): boolean {
  const key = request.headers['sec-websocket-key'];
  const version = request.headers['sec-websocket-version'];
  return (
    request.method === 'GET' &&
    (request.headers.upgrade ?? '').toLowerCase() === 'websocket' &&
    typeof key === 'string' &&
    KEY.test(key.trim()) &&
    (version === '13' || version === '8')
  );
}

/**
 * Completes a handshake that `isWebSocketHandshake` passed (101 Switching Protocols) and makes the
 * socket a connection; `head` holds any bytes the client sent after its request.
 */
export function acceptTextWebSocket(
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  handler: TextWebSocketHandler,
  maxPayload: number,
): TextWebSocket {
  const key = String(request.headers['sec-websocket-key']).trim();
  const accept = createHash('sha1')
    .update(key + GUID)
    .digest('base64');
  socket.write(
    'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  // Read again as the socket's first data, after the caller has its connection in hand.
  if (head.length > 0) socket.unshift(head);
  return new TextWebSocket(socket, handler, maxPayload);
}

export class TextWebSocket {
  private state: number = OPEN;
  /** Bytes received and not yet parsed (a frame not whole yet), oldest first. */
  private chunks: Buffer[] | null = null;
  private buffered = 0;
  /** A fragmented text message's parts so far. */
  private fragments: Buffer[] | null = null;
  private fragmentsLength = 0;
  /** Cuts a closing handshake the peer does not finish. */
  private closeTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly socket: Duplex,
    private readonly handler: TextWebSocketHandler,
    private readonly maxPayload: number,
  ) {
    const upgraded = socket as Upgraded;
    upgraded[connectionOf] = this;
    // The HTTP server's socket may carry its request timeout; a stream is kept alive by its owner.
    (socket as Partial<{ setTimeout(ms: number): void }>).setTimeout?.(0);
    (socket as Partial<{ setNoDelay(on: boolean): void }>).setNoDelay?.(true);
    socket.on('data', socketData);
    socket.on('end', socketEnd);
    socket.on('close', socketClose);
    socket.on('error', socketError);
  }

  /** Open: messages can still be sent. */
  get open(): boolean {
    return this.state === OPEN;
  }

  /**
   * Sends a text message as one frame. The callback has an error when the frame never reached the
   * operating system whole (the socket closed or failed first).
   */
  send(text: string, callback?: (error?: Error | null) => void): void {
    if (this.state !== OPEN) {
      if (callback) process.nextTick(callback, new Error('the WebSocket is not open'));
      return;
    }
    const length = Buffer.byteLength(text);
    const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
    const frame = Buffer.allocUnsafe(header + length);
    frame[0] = 0x80 | OPCODE_TEXT;
    if (header === 2) {
      frame[1] = length;
    } else if (header === 4) {
      frame[1] = 126;
      frame.writeUInt16BE(length, 2);
    } else {
      frame[1] = 127;
      frame.writeUInt32BE(0, 2);
      frame.writeUInt32BE(length, 6);
    }
    frame.write(text, header, 'utf8');
    this.socket.write(frame, callback);
  }

  /** Starts the closing handshake; the socket ends when the peer answers, or is cut after 5 s. */
  close(code: number, reason = ''): void {
    if (this.state !== OPEN) return;
    this.state = CLOSE_SENT;
    this.fragments = null;
    this.fragmentsLength = 0;
    this.writeClose(code, reason);
    this.armCut();
  }

  /** Cuts the socket at once, no handshake (a peer that went silent, a server that cannot wait). */
  terminate(): void {
    if (this.state < ENDING) this.state = ENDING;
    this.dropInput();
    this.socket.destroy();
  }

  /** Bytes from the socket: every whole frame in them is handled, the rest kept. */
  receive(chunk: Buffer): void {
    if (this.state > CLOSE_SENT) return;
    if (this.chunks === null) this.chunks = [chunk];
    else this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.state <= CLOSE_SENT && this.parseFrame());
  }

  /** Handles the first frame if it is whole; false when more bytes are needed. */
  private parseFrame(): boolean {
    if (this.buffered < 2) return false;
    const first = this.peek(2);
    const byte0 = first[0]!;
    const byte1 = first[1]!;
    const fin = (byte0 & 0x80) !== 0;
    const opcode = byte0 & 0x0f;
    const masked = (byte1 & 0x80) !== 0;
    const shortLength = byte1 & 0x7f;
    if ((byte0 & 0x70) !== 0) return this.fail(1002, 'no extension was agreed');
    if (!masked) return this.fail(1002, 'a client frame must be masked');
    const control = opcode >= 0x8;
    if (control) {
      if (opcode !== OPCODE_CLOSE && opcode !== OPCODE_PING && opcode !== OPCODE_PONG) {
        return this.fail(1002, 'unknown opcode');
      }
      if (!fin || shortLength > 125) return this.fail(1002, 'invalid control frame');
    } else if (opcode === OPCODE_CONTINUATION) {
      if (this.fragments === null) return this.fail(1002, 'nothing to continue');
    } else if (opcode === OPCODE_TEXT || opcode === OPCODE_BINARY) {
      if (this.fragments !== null) return this.fail(1002, 'a message is still in fragments');
    } else {
      return this.fail(1002, 'unknown opcode');
    }
    const lengthBytes = shortLength === 126 ? 2 : shortLength === 127 ? 8 : 0;
    const headerLength = 2 + lengthBytes + 4;
    if (this.buffered < headerLength) return false;
    const header = this.peek(headerLength);
    let length = shortLength;
    if (lengthBytes === 2) {
      length = header.readUInt16BE(2);
    } else if (lengthBytes === 8) {
      // Over 2^53 cannot be a length here; anything over maxPayload is refused below anyway.
      const high = header.readUInt32BE(2);
      if (high > 0x1fffff) return this.fail(1009, 'message too big');
      length = high * 2 ** 32 + header.readUInt32BE(6);
    }
    if (!control && this.fragmentsLength + length > this.maxPayload) {
      return this.fail(1009, 'message too big');
    }
    if (this.buffered < headerLength + length) return false;
    const mask = Buffer.from(header.subarray(2 + lengthBytes, headerLength));
    this.consume(headerLength);
    const payload = length === 0 ? Buffer.alloc(0) : this.consume(length);
    for (let i = 0; i < payload.length; i += 1) payload[i] = payload[i]! ^ mask[i & 3]!;

    if (this.state === CLOSE_SENT) {
      // Closing: only the peer's close frame matters now; it ends the socket.
      if (opcode !== OPCODE_CLOSE) return true;
      this.end();
      return false;
    }
    if (control) return this.control(opcode, payload);
    if (opcode === OPCODE_BINARY) return this.fail(1003, 'text messages only');
    if (!fin) {
      this.fragments ??= [];
      if (this.fragments.length >= MAX_FRAGMENTS) return this.fail(1009, 'too many fragments');
      // A copy: a view would keep the whole chunk it came in (up to 64 KB) alive with it.
      this.fragments.push(Buffer.from(payload));
      this.fragmentsLength += payload.length;
      return true;
    }
    let message = payload;
    if (this.fragments !== null) {
      this.fragments.push(payload);
      message = Buffer.concat(this.fragments, this.fragmentsLength + payload.length);
      this.fragments = null;
      this.fragmentsLength = 0;
    }
    if (!isUtf8(message)) return this.fail(1007, 'invalid UTF-8');
    this.handler.onMessage(message.toString('utf8'));
    return true;
  }

  private control(opcode: number, payload: Buffer): boolean {
    if (opcode === OPCODE_PING) {
      // A peer that pings without reading gets no more pongs queued (RFC 6455 lets a pong answer
      // only the latest ping).
      if (!this.socket.writableNeedDrain) this.writeFrame(OPCODE_PONG, payload);
      return true;
    }
    if (opcode === OPCODE_PONG) return true;
    // A close frame: answered with the same code, then the socket ends.
    if (payload.length === 1) return this.fail(1002, 'invalid close frame');
    let code: number | null = null;
    if (payload.length >= 2) {
      code = payload.readUInt16BE(0);
      if (!validCloseCode(code)) return this.fail(1002, 'invalid close code');
      if (!isUtf8(payload.subarray(2))) return this.fail(1007, 'invalid UTF-8');
    }
    if (code === null) this.writeFrame(OPCODE_CLOSE, Buffer.alloc(0));
    else this.writeClose(code, '');
    this.end();
    return false;
  }

  /** A protocol error: the close frame that says why, and nothing more is read. */
  private fail(code: number, reason: string): false {
    if (this.state === OPEN) this.close(code, reason);
    this.state = ENDING;
    this.dropInput();
    return false;
  }

  private writeClose(code: number, reason: string): void {
    const payload = Buffer.allocUnsafe(2 + Buffer.byteLength(reason));
    payload.writeUInt16BE(code, 0);
    payload.write(reason, 2, 'utf8');
    this.writeFrame(OPCODE_CLOSE, payload);
  }

  private writeFrame(opcode: number, payload: Buffer): void {
    if (!this.socket.writable) return;
    const frame = Buffer.allocUnsafe(2 + payload.length);
    frame[0] = 0x80 | opcode;
    frame[1] = payload.length;
    payload.copy(frame, 2);
    this.socket.write(frame);
  }

  /** The peer sends nothing more: our side ends too. */
  peerEnded(): void {
    this.end();
  }

  /**
   * Reads nothing more and ends our side; a peer that keeps its side open past CLOSE_WAIT_MS
   * (the HTTP server allows half-open sockets) has the socket cut.
   */
  private end(): void {
    if (this.state < ENDING) this.state = ENDING;
    this.dropInput();
    this.socket.end();
    this.armCut();
  }

  private armCut(): void {
    if (this.closeTimer !== null || this.state === CLOSED) return;
    this.closeTimer = setTimeout(cutSocket, CLOSE_WAIT_MS, this.socket);
    this.closeTimer.unref();
  }

  /** The socket closed: the handler hears it once. */
  ended(): void {
    if (this.state === CLOSED) return;
    this.state = CLOSED;
    this.dropInput();
    if (this.closeTimer !== null) clearTimeout(this.closeTimer);
    this.closeTimer = null;
    this.handler.onClose();
  }

  failed(error: Error): void {
    this.handler.onError?.(error);
  }

  /** The first `length` buffered bytes as one buffer (joined only when they span chunks). */
  private peek(length: number): Buffer {
    const chunks = this.chunks!;
    let first = chunks[0]!;
    if (first.length < length) {
      first = Buffer.concat(chunks);
      this.chunks = [first];
    }
    return first;
  }

  /** Takes the first `length` buffered bytes off (a view when they lie in one chunk). */
  private consume(length: number): Buffer {
    const chunks = this.chunks!;
    this.buffered -= length;
    let taken: Buffer;
    const first = chunks[0]!;
    if (first.length >= length) {
      taken = first.subarray(0, length);
      if (first.length === length) chunks.shift();
      else chunks[0] = first.subarray(length);
    } else {
      taken = Buffer.allocUnsafe(length);
      let at = 0;
      while (at < length) {
        const chunk = chunks[0]!;
        const part = Math.min(chunk.length, length - at);
        chunk.copy(taken, at, 0, part);
        at += part;
        if (part === chunk.length) chunks.shift();
        else chunks[0] = chunk.subarray(part);
      }
    }
    if (chunks.length === 0) this.chunks = null;
    return taken;
  }

  private dropInput(): void {
    this.chunks = null;
    this.buffered = 0;
    this.fragments = null;
    this.fragmentsLength = 0;
  }
}

/** Close codes a peer may send (RFC 6455 §7.4, and the registry's 1012–1014). */
function validCloseCode(code: number): boolean {
  return (
    (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) ||
    (code >= 3000 && code <= 4999)
  );
}

// The socket's listeners are module functions, not closures, so a connection costs no context.
function socketData(this: Upgraded, chunk: Buffer): void {
  this[connectionOf]!.receive(chunk);
}

function socketEnd(this: Upgraded): void {
  this[connectionOf]!.peerEnded();
}

function socketClose(this: Upgraded): void {
  this[connectionOf]!.ended();
}

function socketError(this: Upgraded, error: Error): void {
  this[connectionOf]!.failed(error);
  this.destroy();
}

function cutSocket(socket: Duplex): void {
  socket.destroy();
}
