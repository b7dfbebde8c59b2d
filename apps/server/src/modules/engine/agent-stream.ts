import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  AGENT_STREAM_MAX_BYTES,
  AGENT_STREAM_MAX_PENDING,
  AGENT_STREAM_PATH,
  agentStreamRequestSchema,
  refuseUnstorable,
  type AgentStreamOperation,
  type ClaimedRun,
  type Language,
} from '@rota/contract';
import { bearerToken } from '../../http/auth.js';
import { errorBody, uniqueIssues } from '../../http/error-handler.js';
import { AppError, type ErrorCode } from '../../lib/errors.js';
import { pickLanguage } from '../../lib/language.js';
import { agentOperations } from './agent-operations.js';
import type { AgentIdentity, DispatchService } from './dispatch-service.js';

/**
 * An agent sends a call at least every heartbeat or claim wait (25 s at most): a stream silent
 * this long is a machine that vanished without closing its socket, and is closed.
 */
const SILENT_STREAM_MS = 60_000;
/** How long a stopping server waits for answers in flight before it cuts the streams. */
const DRAIN_MS = 5_000;

/** The validators, once: each operation's body with the app-wide NUL check. */
const bodies = Object.fromEntries(
  Object.entries(agentOperations).map(([op, { body }]) => [op, refuseUnstorable(body)]),
) as { [K in AgentStreamOperation]: (typeof agentOperations)[K]['body'] };

interface Stream {
  socket: WebSocket;
  token: string;
  lang: Language;
  /** Ends the claims this stream holds when it closes: runs nobody receives go back at once. */
  hangUp: AbortController;
  pending: number;
  lastHeard: number;
}

export interface AgentStreamOptions {
  dispatch: DispatchService;
  log: FastifyBaseLogger;
  /** Each answered call, as HTTP answers are counted (/metrics). */
  onAnswer?: (op: string, status: number, seconds: number) => void;
}

/**
 * The agent protocol's calls as messages on one WebSocket per agent (issue 18). A long poll
 * held over HTTP costs the server a request, a reply, their streams and the route's frames
 * (≈13 KB of heap each); held here, a claim is an entry among the waiters and a promise.
 * What each call does is agentOperations', the same as over HTTP.
 */
export class AgentStreamServer {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: AGENT_STREAM_MAX_BYTES,
    perMessageDeflate: false,
  });
  private readonly streams = new Set<Stream>();
  private readonly sweep: NodeJS.Timeout;
  private draining = false;

  constructor(private readonly options: AgentStreamOptions) {
    this.sweep = setInterval(() => this.closeSilent(), SILENT_STREAM_MS / 4);
    this.sweep.unref();
  }

  /** The HTTP server's `upgrade` event: this path becomes a stream, any other is refused. */
  readonly upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // A socket error while the upgrade is decided must not become an uncaught exception. A
    // function of the module's, not a closure: a closure here would keep this call's request,
    // head and errors alive with the socket, for as long as the stream lives (≈2 KB an agent).
    socket.on('error', destroySocket);
    const path = (request.url ?? '').split('?')[0];
    const lang = pickLanguage(request.headers['accept-language']);
    if (path !== AGENT_STREAM_PATH) return refuse(socket, lang, 'route_not_found');
    if (this.draining) return refuse(socket, lang, 'service_unavailable');
    const token = bearerToken(request);
    if (!token) return refuse(socket, lang, 'unauthorized');
    this.options.dispatch.authenticate(token).then(
      () => {
        if (socket.destroyed) return;
        if (this.draining) return refuse(socket, lang, 'service_unavailable');
        this.wss.handleUpgrade(request, socket, head, (ws) => {
          socket.off('error', destroySocket);
          this.open(ws, token, lang);
        });
      },
      (error: unknown) => {
        if (error instanceof AppError && error.status < 500)
          return refuse(socket, lang, error.code);
        this.options.log.error({ err: error }, 'agent stream: could not authenticate');
        refuse(socket, lang, 'service_unavailable');
      },
    );
  };

  /**
   * Stopping: no new stream; each open one is closed (1001) once its answers in flight are
   * out, so an agent moves to another instance without losing an answer it was sent.
   */
  async close(): Promise<void> {
    this.draining = true;
    clearInterval(this.sweep);
    const deadline = Date.now() + DRAIN_MS;
    while (this.streams.size > 0 && Date.now() < deadline) {
      for (const stream of this.streams) {
        if (stream.pending === 0) stream.socket.close(1001, 'server stopping');
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const stream of this.streams) stream.socket.terminate();
    this.wss.close();
  }

  get size(): number {
    return this.streams.size;
  }

  private open(socket: WebSocket, token: string, lang: Language): void {
    const stream: Stream = {
      socket,
      token,
      lang,
      hangUp: new AbortController(),
      pending: 0,
      lastHeard: Date.now(),
    };
    this.streams.add(stream);
    socket.on('message', (data, isBinary) => {
      stream.lastHeard = Date.now();
      if (isBinary) return socket.close(1003, 'text messages only');
      void this.receive(stream, data.toString());
    });
    socket.on('close', () => {
      this.streams.delete(stream);
      stream.hangUp.abort();
    });
    socket.on('error', (error) => {
      this.options.log.info({ err: error }, 'agent stream: socket error');
    });
  }

  private async receive(stream: Stream, text: string): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return stream.socket.close(1007, 'invalid JSON');
    }
    const id = (message as { id?: unknown } | null)?.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
      // Nothing to answer to: the agent speaks another protocol.
      return stream.socket.close(1008, 'a message needs an id');
    }
    const started = performance.now();
    const request = agentStreamRequestSchema.safeParse(message);
    if (!request.success) {
      return this.answerError(stream, id, 'unknown', started, new AppError('route_not_found'));
    }
    const { op } = request.data;
    if (stream.pending >= AGENT_STREAM_MAX_PENDING) {
      return this.answerError(stream, id, op, started, new AppError('too_many_requests'));
    }
    stream.pending += 1;
    // Runs this call claimed: given back if the answer cannot reach the agent.
    let handed: ClaimedRun[] = [];
    let agent: AgentIdentity | undefined;
    try {
      // Every call, as over HTTP: a deleted agent or a retired token stops at once (cached).
      agent = await this.options.dispatch.authenticate(stream.token);
      const operation = agentOperations[op];
      if (agent.retired && !operation.retiredMay) throw new AppError('unauthorized');
      const body = bodies[op].safeParse(request.data.body);
      if (!body.success) {
        throw new AppError(
          'invalid_input',
          uniqueIssues(
            body.error.issues.map((issue) => ({
              field: issue.path.join('.'),
              message: issue.message,
            })),
          ),
        );
      }
      const found = agent;
      const answer = await operation.answer(
        {
          dispatch: this.options.dispatch,
          agent,
          deliver: async (take) => {
            handed = await take(stream.hangUp.signal);
            if (handed.length > 0 && stream.hangUp.signal.aborted) {
              await this.giveBack(found, handed);
              handed = [];
            }
            return handed;
          },
        },
        body.data as never,
      );
      this.send(stream, id, op, started, 200, answer, found, handed);
    } catch (error) {
      this.answerError(stream, id, op, started, error);
    } finally {
      stream.pending -= 1;
    }
  }

  private answerError(
    stream: Stream,
    id: number,
    op: string,
    started: number,
    error: unknown,
  ): void {
    if (error instanceof AppError && error.status < 500) {
      return this.send(stream, id, op, started, error.status, errorBody(stream.lang, error));
    }
    const requestId = randomUUID();
    this.options.log.error({ err: error, reqId: requestId, op }, 'agent stream: call failed');
    const failure = error instanceof AppError ? error : new AppError('internal_error');
    this.send(stream, id, op, started, failure.status, {
      ...errorBody(stream.lang, failure),
      request_id: requestId,
    });
  }

  private send(
    stream: Stream,
    id: number,
    op: string,
    started: number,
    status: number,
    body: unknown,
    agent?: AgentIdentity,
    runs: ClaimedRun[] = [],
  ): void {
    this.options.onAnswer?.(op, status, (performance.now() - started) / 1000);
    const undelivered = (error?: Error) => {
      if (!error || !agent || runs.length === 0) return;
      this.giveBack(agent, runs).catch((giveBackError: unknown) =>
        this.options.log.error(
          { err: giveBackError },
          'agent stream: could not give back an undelivered claim',
        ),
      );
    };
    if (stream.socket.readyState !== stream.socket.OPEN) {
      return undelivered(new Error('the stream closed'));
    }
    // The callback has an error when the answer never reached the operating system whole.
    stream.socket.send(JSON.stringify({ id, status, body }), undelivered);
  }

  private async giveBack(agent: AgentIdentity, runs: ClaimedRun[]): Promise<void> {
    await Promise.all(runs.map((run) => this.options.dispatch.giveBack(agent, run)));
  }

  private closeSilent(): void {
    const cutoff = Date.now() - SILENT_STREAM_MS;
    for (const stream of this.streams) {
      if (stream.lastHeard < cutoff) stream.socket.terminate();
    }
  }
}

function destroySocket(this: Duplex): void {
  this.destroy();
}

/** An upgrade refused with a plain HTTP answer, as the API would have answered it. */
function refuse(socket: Duplex, lang: Language, code: ErrorCode): void {
  if (socket.destroyed) return;
  const error = new AppError(code);
  const body = JSON.stringify(errorBody(lang, error));
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_TEXT[error.status] ?? 'Error'}\r\n` +
      'Connection: close\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

const STATUS_TEXT: Record<number, string> = {
  401: 'Unauthorized',
  404: 'Not Found',
  503: 'Service Unavailable',
};
