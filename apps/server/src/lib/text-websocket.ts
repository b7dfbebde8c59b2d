import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData, type ServerOptions } from 'ws';

/**
 * The server's end of a WebSocket that carries text messages, on `ws`: the framing, masking,
 * fragments, UTF-8 checks, ping and pong and the closing handshake are `ws`'s, a library kept up
 * against the RFC and its fuzzers, rather than ours. This adds what the agent stream needs around
 * it: text messages only (a binary one closes the connection, 1003), no extension (a compressed
 * frame is refused, 1002), and bounds on what a peer may hold: a handshake that never finishes,
 * too many of them from one address, a closing handshake the peer never finishes, and a message
 * in so many pieces that the pieces cost more than the message.
 */

/** What a connection tells its owner (an object, so that a connection needs no closures). */
export interface TextWebSocketHandler {
  /** A whole text message, valid UTF-8. */
  onMessage(text: string): void;
  /** The socket closed (once), however it closed. */
  onClose(): void;
  /**
   * A socket error, before `onClose`. A peer that breaks the protocol is answered with the close
   * code that says why, and is not reported here: it is the peer's fault, not the socket's.
   */
  onError?(error: Error): void;
}

export interface TextWebSocketOptions {
  /** The largest message, in bytes; a bigger one closes the connection (1009). */
  maxPayload?: number;
  /**
   * How long a socket may stay between its upgrade request and its 101 (while its caller checks
   * the token, say), and a refused one may stay open, before it is cut.
   */
  handshakeTimeoutMs?: number;
  /** Unfinished handshakes from one remote address at once; past it a new one is refused, 503. */
  maxPendingPerAddress?: number;
  /** How long a closing handshake may wait for the peer's answer before the socket is cut. */
  closeTimeoutMs?: number;
}

/** The agent stream's message limit (the contract's AGENT_STREAM_MAX_BYTES). */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
/** The agent gives up on its own handshake after 10 s: a longer one is nobody's. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/**
 * An agent opens one stream at a time and a handshake lasts as long as a token check: a few
 * dozen at once from one address are many agents behind one NAT, more is a client that opens
 * sockets and never finishes them.
 */
const MAX_PENDING_PER_ADDRESS = 32;
/**
 * A peer that answers our close frame answers at once; `ws`'s default of 30 s would keep a socket
 * that never answers six times as long as the agent stream's drain waits for its answers.
 */
const CLOSE_TIMEOUT_MS = 5_000;
/**
 * A message's chunks are kept until its frame is whole: a megabyte arrives in a few hundred, a
 * peer writing a byte at a time would otherwise hold one small Buffer per byte (about 100 bytes
 * each) for `ws`'s default of 262,144 of them. Past it the connection closes, 1008.
 */
const MAX_BUFFERED_CHUNKS = 4_096;
/**
 * Each fragment costs a Buffer, so a peer sending 1-byte (or empty) fragments could hold a
 * million of them for 7 bytes each. The agent sends a message as one frame. Past it, 1008.
 */
const MAX_FRAGMENTS = 1_024;

/** What `ws` accepts as a key; checked here too so that a wrong client costs no tracking. */
const KEY = /^[+/0-9A-Za-z]{22}==$/;

const connectionOf = Symbol('rota.textWebSocket');
const handshakeOf = Symbol('rota.textWebSocket.handshake');

interface PendingHandshake {
  server: TextWebSocketServer;
  address: string;
  timer: NodeJS.Timeout;
}

/** The upgraded socket (a `net.Socket`, or any Duplex in a test) and what this module hangs on it. */
type Tracked = Duplex & {
  remoteAddress?: string;
  [connectionOf]?: TextWebSocket;
  [handshakeOf]?: PendingHandshake;
};
type Owned = WebSocket & { [connectionOf]?: TextWebSocket };

/** Options `ws` 8.23 takes that its type definitions (8.18) do not list yet. */
interface NewerServerOptions {
  closeTimeout: number;
}

/**
 * One configuration of text WebSockets: the `ws` server that completes handshakes (no HTTP server
 * of its own, no extension, no set of its clients, since the agent stream keeps its own) and the
 * handshakes it has not completed yet, counted per remote address.
 */
export class TextWebSocketServer {
  readonly options: Required<TextWebSocketOptions>;
  private readonly wss: WebSocketServer;
  /** Unfinished handshakes per remote address (addresses with none are not kept). */
  private readonly pending = new Map<string, number>();

  constructor(options: TextWebSocketOptions = {}) {
    this.options = {
      maxPayload: options.maxPayload ?? DEFAULT_MAX_PAYLOAD,
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS,
      maxPendingPerAddress: options.maxPendingPerAddress ?? MAX_PENDING_PER_ADDRESS,
      closeTimeoutMs: options.closeTimeoutMs ?? CLOSE_TIMEOUT_MS,
    };
    const wsOptions: ServerOptions & NewerServerOptions = {
      noServer: true,
      perMessageDeflate: false,
      maxPayload: this.options.maxPayload,
      clientTracking: false,
      closeTimeout: this.options.closeTimeoutMs,
      maxBufferedChunks: MAX_BUFFERED_CHUNKS,
      maxFragments: MAX_FRAGMENTS,
    };
    this.wss = new WebSocketServer(wsOptions);
  }

  /**
   * Whether a handshake can become a WebSocket: the checks `ws` makes of an upgrade, so a wrong
   * client is refused before anything else is spent on it. A handshake that passes is counted as
   * unfinished from here until `accept`: it is cut if neither that nor its socket's end comes
   * within `handshakeTimeoutMs`, and one past `maxPendingPerAddress` is answered 503 and cut at
   * once (false; its socket is destroyed, so a caller's refusal that checks `destroyed` writes
   * nothing more).
   */
  isHandshake(request: IncomingMessage): boolean {
    const key = request.headers['sec-websocket-key'];
    const version = request.headers['sec-websocket-version'];
    const valid =
      request.method === 'GET' &&
      (request.headers.upgrade ?? '').toLowerCase() === 'websocket' &&
      typeof key === 'string' &&
      KEY.test(key) &&
      (version === '13' || version === '8');
    if (!valid) return false;
    // A request built by hand (a test) has no socket to watch.
    const socket = request.socket as Tracked | undefined;
    if (!socket || socket[handshakeOf] || socket.destroyed) return true;
    return this.track(socket);
  }

  /**
   * Completes a handshake that `isHandshake` passed (101 Switching Protocols) and makes the socket
   * a connection; `head` holds any bytes the client sent after its request. Should `ws` refuse it
   * (the client already hung up), the handler hears a close, as for any connection that ends.
   */
  accept(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    handler: TextWebSocketHandler,
  ): TextWebSocket {
    settleHandshake(socket as Tracked);
    const connection = new TextWebSocket(socket, handler);
    // Without `verifyClient` the upgrade completes (or is refused) before this returns.
    this.wss.handleUpgrade(request, socket, head, (ws) => connection.attach(ws));
    if (!connection.attached) connection.refused();
    return connection;
  }

  /** Unfinished handshakes from `address` now. */
  pendingFrom(address: string): number {
    return this.pending.get(address) ?? 0;
  }

  private track(socket: Tracked): boolean {
    const address = socket.remoteAddress ?? '';
    const count = this.pending.get(address) ?? 0;
    if (count >= this.options.maxPendingPerAddress) {
      // Written before the socket goes: a client may read it; a flood gets nothing more from us.
      socket.write(
        'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
      );
      socket.destroy();
      return false;
    }
    this.pending.set(address, count + 1);
    const timer = setTimeout(cutSocket, this.options.handshakeTimeoutMs, socket);
    timer.unref();
    socket[handshakeOf] = { server: this, address, timer };
    socket.once('close', handshakeSocketClosed);
    return true;
  }

  /** A handshake finished (accepted, or its socket closed). */
  release(address: string): void {
    const count = (this.pending.get(address) ?? 1) - 1;
    if (count <= 0) this.pending.delete(address);
    else this.pending.set(address, count);
  }
}

/** The socket's handshake is no longer unfinished: its timer and its count go. */
function settleHandshake(socket: Tracked): void {
  const pending = socket[handshakeOf];
  if (!pending) return;
  socket[handshakeOf] = undefined;
  clearTimeout(pending.timer);
  socket.off('close', handshakeSocketClosed);
  pending.server.release(pending.address);
}

function handshakeSocketClosed(this: Tracked): void {
  settleHandshake(this);
}

/** One connection: `ws`'s WebSocket and what its owner hears of it. */
export class TextWebSocket {
  private ws: Owned | null = null;
  private closed = false;

  constructor(
    private readonly socket: Duplex,
    private readonly handler: TextWebSocketHandler,
  ) {}

  /** `ws` completed the handshake. */
  attach(ws: WebSocket): void {
    const owned = ws as Owned;
    this.ws = owned;
    owned[connectionOf] = this;
    (this.socket as Tracked)[connectionOf] = this;
    owned.on('message', wsMessage);
    owned.on('close', wsClose);
    // `ws` reports what the peer got wrong as an error after it sent the close frame for it;
    // without a listener that error would be thrown.
    owned.on('error', ignoreProtocolError);
    // `ws` swallows the socket's own errors (and destroys it); the owner hears of them.
    this.socket.on('error', socketError);
  }

  get attached(): boolean {
    return this.ws !== null;
  }

  /** `ws` refused the upgrade (its socket already ended or is ending): the owner hears a close. */
  refused(): void {
    if (this.socket.closed) process.nextTick(refusedClosed, this);
    else this.socket.once('close', () => this.ended());
  }

  /** Open: messages can still be sent. */
  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /**
   * Sends a text message as one frame. The callback has an error when the frame never reached the
   * operating system whole (the socket closed or failed first).
   */
  send(text: string, callback?: (error?: Error | null) => void): void {
    if (!this.open) {
      if (callback) process.nextTick(callback, new Error('the WebSocket is not open'));
      return;
    }
    this.ws!.send(text, callback);
  }

  /**
   * Starts the closing handshake; the socket ends when the peer answers, or is cut after
   * `closeTimeoutMs` (a peer that answers and keeps its side of the socket open, too).
   */
  close(code: number, reason = ''): void {
    if (!this.open) return;
    this.ws!.close(code, reason);
  }

  /** Cuts the socket at once, no handshake (a peer that went silent, a server that cannot wait). */
  terminate(): void {
    if (this.ws) this.ws.terminate();
    else this.socket.destroy();
  }

  message(data: RawData, isBinary: boolean): void {
    // Once our close frame went out, only the peer's close frame matters: nothing more is read.
    if (!this.open) return;
    if (isBinary) return this.close(1003, 'text messages only');
    this.handler.onMessage(data.toString());
  }

  /** The socket closed: the handler hears it once. */
  ended(): void {
    if (this.closed) return;
    this.closed = true;
    this.handler.onClose();
  }

  failed(error: Error): void {
    this.handler.onError?.(error);
  }
}

// Listeners are module functions, not closures, so a connection costs no context of its own.
function wsMessage(this: Owned, data: RawData, isBinary: boolean): void {
  this[connectionOf]!.message(data, isBinary);
}

function wsClose(this: Owned): void {
  this[connectionOf]!.ended();
}

function ignoreProtocolError(): void {}

function socketError(this: Tracked, error: Error): void {
  this[connectionOf]?.failed(error);
}

function refusedClosed(connection: TextWebSocket): void {
  connection.ended();
}

function cutSocket(socket: Duplex): void {
  socket.destroy();
}

/** The configurations the module's functions use, one per message limit. */
const servers = new Map<number, TextWebSocketServer>();

function serverFor(maxPayload: number): TextWebSocketServer {
  let server = servers.get(maxPayload);
  if (!server) {
    server = new TextWebSocketServer({ maxPayload });
    servers.set(maxPayload, server);
  }
  return server;
}

/**
 * `TextWebSocketServer.isHandshake` with the defaults. The count of unfinished handshakes is this
 * one's whatever limit `acceptTextWebSocket` is given: a handshake is settled by the server that
 * counted it.
 */
export function isWebSocketHandshake(request: IncomingMessage): boolean {
  return serverFor(DEFAULT_MAX_PAYLOAD).isHandshake(request);
}

/** `TextWebSocketServer.accept` with the defaults and this message limit. */
export function acceptTextWebSocket(
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  handler: TextWebSocketHandler,
  maxPayload: number,
): TextWebSocket {
  return serverFor(maxPayload).accept(request, socket, head, handler);
}
