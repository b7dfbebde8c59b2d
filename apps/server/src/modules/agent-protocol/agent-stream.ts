import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
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
import { errorBody, failureBody, uniqueIssues } from '../../http/error-handler.js';
import { nestsDeeperThan } from '../../http/json-body.js';
import { AppError, fieldIssuesOf, type ErrorCode } from '../../lib/errors.js';
import { pickLanguage } from '../../lib/language.js';
import {
  acceptTextWebSocket,
  isWebSocketHandshake,
  type TextWebSocket,
  type TextWebSocketHandler,
} from '../../lib/text-websocket.js';
import { agentOperations } from './agent-operations.js';
import { LongPoll, type Call, type ClaimBody } from './stream-long-poll.js';
import type { AgentIdentity, DispatchService } from '../dispatch/dispatch-service.js';

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

/** One agent's stream: its connection's handler, so that it needs no closures of its own. */
export class Stream implements TextWebSocketHandler {
  socket!: TextWebSocket;
  /** The socket closed: runs handed to its calls from now on go back at once. */
  closed = false;
  /**
   * Ends the in-frame waits (a finish that claims with a wait) when the stream closes; made
   * on the first such call, as most streams never need one (an AbortController ≈ 0.5 KB).
   */
  hangUp: AbortController | null = null;
  pending = 0;
  lastHeard = Date.now();
  /** Its long polls parked now (one per free slot of the agent), if any. */
  parked: LongPoll[] | null = null;

  constructor(
    private readonly server: AgentStreamServer,
    readonly token: string,
    readonly lang: Language,
    /** Who opened it; its token is checked again on every call (it may be retired since). */
    readonly agent: AgentIdentity,
  ) {}

  onMessage(text: string): void {
    this.lastHeard = Date.now();
    void this.server.receive(this, text);
  }

  onClose(): void {
    this.server.forget(this);
    this.closed = true;
    this.hangUp?.abort();
    // Nobody to answer: parked long polls leave the waiters (no run was handed to them).
    for (const poll of [...(this.parked ?? [])]) poll.drop();
  }

  onError(error: Error): void {
    this.server.socketError(error);
  }
}

export interface AgentStreamOptions {
  dispatch: DispatchService;
  log: FastifyBaseLogger;
  /** Each answered call, as HTTP answers are counted (/metrics). */
  onAnswer?: (op: string, status: number, seconds: number) => void;
}

/**
 * The agent protocol's calls as messages on one WebSocket per agent. A long poll
 * held over HTTP costs the server a request, a reply, their streams and the route's frames
 * (≈13 KB of heap each); held here, a claim is a parked LongPoll (≈0.6 KB). What each call
 * does is agentOperations', the same as over HTTP.
 */
export class AgentStreamServer {
  private readonly streams = new Set<Stream>();
  /** Open streams per agent: an agent that reconnected before its old stream closed is not lost. */
  private readonly perAgent = new Map<number, number>();
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
    if (!isWebSocketHandshake(request)) return refuse(socket, lang, 'invalid_input');
    const token = bearerToken(request);
    if (!token) return refuse(socket, lang, 'unauthorized');
    this.options.dispatch.authenticate(token).then(
      (agent) => {
        if (socket.destroyed) return;
        if (this.draining) return refuse(socket, lang, 'service_unavailable');
        socket.off('error', destroySocket);
        const stream = new Stream(this, token, lang, agent);
        this.streams.add(stream);
        const id = agent.rota_nodes_id;
        this.perAgent.set(id, (this.perAgent.get(id) ?? 0) + 1);
        stream.socket = acceptTextWebSocket(request, socket, head, stream, AGENT_STREAM_MAX_BYTES);
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
  }

  get waiters() {
    return this.options.dispatch.waiters;
  }

  forget(stream: Stream): void {
    if (!this.streams.delete(stream)) return;
    const id = stream.agent.rota_nodes_id;
    const left = (this.perAgent.get(id) ?? 1) - 1;
    if (left > 0) this.perAgent.set(id, left);
    else this.perAgent.delete(id);
    // The kernel closes a dead machine's socket, or the silent sweep does: the console hears of
    // it now rather than when the lease runs out. A stopping server closes streams itself, and
    // an agent that stops says goodbye first (over HTTP), which leaves it offline: not lost.
    if (this.draining || left > 0) return;
    this.options.dispatch
      .connectionLost(stream.agent)
      .catch((error: unknown) =>
        this.options.log.error({ err: error }, 'agent stream: could not mark a lost connection'),
      );
  }

  socketError(error: Error): void {
    this.options.log.info({ err: error }, 'agent stream: socket error');
  }

  async receive(stream: Stream, text: string): Promise<void> {
    let message: unknown;
    // As over HTTP: the schema's walk after the parse recurses a level at a time. Unparsed, the
    // message has no id to answer to, so the stream closes as for JSON that is not JSON.
    if (nestsDeeperThan(text)) return stream.socket.close(1007, 'JSON nested too deeply');
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
    const request = agentStreamRequestSchema.safeParse(message);
    const call: Call = {
      stream,
      id,
      op: request.success ? request.data.op : 'unknown',
      started: performance.now(),
      counted: false,
    };
    if (!request.success) return this.answerError(call, new AppError('route_not_found'));
    if (stream.pending >= AGENT_STREAM_MAX_PENDING) {
      return this.answerError(call, new AppError('too_many_requests'));
    }
    stream.pending += 1;
    call.counted = true;
    const { op } = request.data;
    try {
      // Every call, as over HTTP: a deleted agent or a retired token stops at once (cached).
      const agent = await this.options.dispatch.authenticate(stream.token);
      if (agent.retired && !agentOperations[op].retiredMay) throw new AppError('unauthorized');
      const body = bodies[op].safeParse(request.data.body);
      if (!body.success) {
        throw new AppError('invalid_input', uniqueIssues(fieldIssuesOf(body.error)));
      }
      const claim = body.data as ClaimBody;
      if ((op === 'claim' || op === 'claim-batch') && claim.wait_seconds > 0) {
        const waitMs = Math.min(claim.wait_seconds, this.options.dispatch.timings.claimWaitSeconds);
        // Each attempt claims without waiting; the waiting is the stream's own (LongPoll).
        const deadline = Date.now() + waitMs * 1000;
        return new LongPoll(this, call, agent, { ...claim, wait_seconds: 0 }, deadline).start();
      }
      const outcome = await this.attempt(call, agent, op, body.data);
      this.send(call, 200, outcome.answer, agent, outcome.runs);
    } catch (error) {
      this.answerError(call, error);
    }
  }

  /** One call's answer, and the runs it handed out (to give back if they cannot be sent). */
  async attempt<K extends AgentStreamOperation>(
    call: Call,
    agent: AgentIdentity,
    op: K,
    body: unknown,
  ): Promise<{ answer: unknown; runs: ClaimedRun[] }> {
    let runs: ClaimedRun[] = [];
    const answer = await agentOperations[op].answer(
      {
        dispatch: this.options.dispatch,
        agent,
        deliver: async (take) => {
          runs = await take(hangUpOf(call.stream, op, body));
          if (runs.length > 0 && call.stream.closed) {
            await this.options.dispatch.giveBackAll(agent, runs);
            runs = [];
          }
          return runs;
        },
      },
      body as never,
    );
    return { answer, runs };
  }

  answerError(call: Call, error: unknown): void {
    if (error instanceof AppError && error.status < 500) {
      return this.send(call, error.status, errorBody(call.stream.lang, error));
    }
    const requestId = randomUUID();
    this.options.log.error(
      { err: error, reqId: requestId, op: call.op },
      'agent stream: call failed',
    );
    const body = failureBody(call.stream.lang, requestId, error);
    this.send(call, error instanceof AppError ? error.status : 500, body);
  }

  /** The call's one answer; runs in it go back to the queue if it cannot reach the agent. */
  send(
    call: Call,
    status: number,
    body: unknown,
    agent?: AgentIdentity,
    runs: ClaimedRun[] = [],
  ): void {
    const { stream } = call;
    if (call.counted) {
      call.counted = false;
      stream.pending -= 1;
    }
    this.options.onAnswer?.(call.op, status, (performance.now() - call.started) / 1000);
    const undelivered = (error?: Error | null) => {
      if (!error || !agent || runs.length === 0) return;
      this.options.dispatch
        .giveBackAll(agent, runs)
        .catch((giveBackError: unknown) =>
          this.options.log.error(
            { err: giveBackError },
            'agent stream: could not give back an undelivered claim',
          ),
        );
    };
    if (!stream.socket.open) {
      return undelivered(new Error('the stream closed'));
    }
    // The callback has an error when the answer never reached the operating system whole.
    stream.socket.send(JSON.stringify({ id: call.id, status, body }), undelivered);
  }

  private closeSilent(): void {
    const cutoff = Date.now() - SILENT_STREAM_MS;
    for (const stream of this.streams) {
      if (stream.lastHeard < cutoff) stream.socket.terminate();
    }
  }
}

/** Never aborted: for calls that claim without waiting (the stream checks `closed` after). */
const NO_WAIT = new AbortController().signal;

/** What ends a call's wait when its stream closes; only a finish that claims may wait here. */
function hangUpOf(stream: Stream, op: AgentStreamOperation, body: unknown): AbortSignal {
  const wait = (body as { claim?: { wait_seconds?: number } }).claim?.wait_seconds ?? 0;
  if (op !== 'finish' || wait === 0) return NO_WAIT;
  if (stream.closed) return AbortSignal.abort();
  stream.hangUp ??= new AbortController();
  return stream.hangUp.signal;
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
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  503: 'Service Unavailable',
};
