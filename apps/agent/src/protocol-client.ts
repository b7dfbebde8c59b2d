import {
  AGENT_PROTOCOL_BASE,
  agentClaimResponseSchema,
  agentFinishResponseSchema,
  agentGoodbyeResponseSchema,
  agentHeartbeatResponseSchema,
  agentHelloResponseSchema,
  agentLogResponseSchema,
  type AgentClaim,
  type AgentFinish,
  type AgentGoodbye,
  type AgentHeartbeat,
  type AgentHello,
  type AgentHelloResponse,
  type AgentLogBatch,
  type AgentStreamOperation,
  type AgentUpdateOffer,
  type ClaimedRun,
  AGENT_STREAM_OPERATIONS,
} from '@rota/contract';
import type { z } from 'zod';
import { abortReason, Backoff, DEFAULT_BACKOFF, sleep, type BackoffOptions } from './backoff.js';
import { errorMessage, type Logger } from './logger.js';
import { ProtocolStream, StreamUpgradeError } from './protocol-stream.js';

/** A heartbeat's answer: runs to kill (`cancel`), and of those the ones to stop gracefully. */
export type AgentHeartbeatAnswer = z.output<typeof agentHeartbeatResponseSchema>;

/** The token is refused: retrying cannot help, the agent must stop (exit code 3). */
export class UnauthorizedError extends Error {
  constructor() {
    super('the server refused the agent token (401): check --token / ROTA_AGENT_TOKEN');
    this.name = 'UnauthorizedError';
  }
}

/** A 4xx answer other than 401 and 429: the server will not accept this call as it is. */
export class ProtocolRejectedError extends Error {
  constructor(
    readonly call: string,
    readonly status: number,
    detail: string,
  ) {
    super(`${call}: the server answered ${status}${detail ? ` (${detail})` : ''}`);
    this.name = 'ProtocolRejectedError';
  }
}

/** A 2xx answer this agent does not understand (a server of another version?). */
export class ProtocolResponseError extends Error {
  constructor(
    readonly call: string,
    detail: string,
  ) {
    super(`${call}: unexpected answer from the server (${detail})`);
    this.name = 'ProtocolResponseError';
  }
}

/** A server kept answering 5xx to one call: it will not take it (the caller drops it). */
export class ProtocolGaveUpError extends Error {
  constructor(
    readonly call: string,
    detail: string,
  ) {
    super(`${call}: gave up after repeated server errors (${detail})`);
    this.name = 'ProtocolGaveUpError';
  }
}

interface ProtocolClientOptions {
  /**
   * Origins without trailing slash: instances of one Rota (or one address behind a load
   * balancer). Calls go to one of them and move to the next when it does not answer.
   */
  servers: string[];
  token: string;
  logger: Logger;
  backoff?: BackoffOptions;
  /** Called before an UnauthorizedError is thrown, with the call that met it. */
  onUnauthorized?: (call: string) => void;
  /** Called when a call succeeds after the server was unreachable: the agent says hello again. */
  onReconnect?: () => void;
  /** Called with the update an answer offers (hello, heartbeat, an empty claim). */
  onUpdateOffer?: (offer: AgentUpdateOffer) => void;
}

interface CallOptions {
  signal: AbortSignal;
  /** Per attempt. */
  timeoutMs?: number;
  /** Give up (ProtocolGaveUpError) after this many 5xx answers in a row; unset: never. */
  maxServerErrors?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const STREAM_CALLS: ReadonlySet<string> = new Set(AGENT_STREAM_OPERATIONS);
/** The claim long-poll is held by the server up to wait_seconds; allow that plus slack. */
const CLAIM_SLACK_MS = 10_000;
/** 5xx answers in a row after which a log batch is dropped (with a notice in the run's log). */
const LOG_MAX_SERVER_ERRORS = 5;

/**
 * Typed calls of the agent protocol. Network errors, timeouts, 429 and 5xx are retried with
 * backoff until the call's signal is aborted, so callers only see answers that are final.
 */
export class ProtocolClient {
  private unreachable = false;
  private current = 0;
  /** Set when the server offers a stream (hello's `stream`): its calls go there, not to HTTP. */
  private stream: ProtocolStream | null = null;

  constructor(private readonly options: ProtocolClientOptions) {
    if (options.servers.length === 0) throw new Error('no server to talk to');
  }

  /** The last call that ended reached a server and got an answer that was not a 5xx or 429. */
  get reachable(): boolean {
    return !this.unreachable;
  }

  /** The instance calls go to now. */
  get server(): string {
    return this.options.servers[this.current] as string;
  }

  hello(body: AgentHello, signal: AbortSignal): Promise<AgentHelloResponse['data']> {
    return this.call('hello', body, agentHelloResponseSchema, { signal }).then((r) => {
      this.useStream(r.data.stream === true);
      this.offered(r.data.update);
      return r.data;
    });
  }

  private offered(offer: AgentUpdateOffer | undefined): void {
    if (offer) this.options.onUpdateOffer?.(offer);
  }

  /** Whether heartbeats, claims and finishes go over the stream now. */
  get streaming(): boolean {
    return this.stream !== null && !this.stream.unsupported;
  }

  /** The agent stopped: its stream closes (calls after this go over HTTP). */
  close(): void {
    this.stream?.close();
    this.stream = null;
  }

  private useStream(offered: boolean): void {
    if (offered && !this.stream) this.stream = new ProtocolStream(this.options.token);
    if (!offered) this.close();
  }

  /** The body is built per attempt, so a retried heartbeat lists the runs held at that moment. */
  heartbeat(
    body: () => AgentHeartbeat,
    signal: AbortSignal,
  ): Promise<AgentHeartbeatAnswer['data']> {
    return this.call('heartbeat', body, agentHeartbeatResponseSchema, { signal }).then((r) => {
      this.offered(r.data.update);
      return r.data;
    });
  }

  claim(body: AgentClaim, signal: AbortSignal): Promise<ClaimedRun | null> {
    return this.call('claim', body, agentClaimResponseSchema, {
      signal,
      timeoutMs: body.wait_seconds * 1000 + CLAIM_SLACK_MS,
    }).then((r) => {
      this.offered(r.update);
      return r.data;
    });
  }

  /** A batch a server keeps failing on (5xx) is given up after a few tries: never forever. */
  logs(
    batch: AgentLogBatch,
    signal: AbortSignal,
  ): Promise<{ cancel: boolean; stop_grace_seconds?: number | null }> {
    return this.call('logs', batch, agentLogResponseSchema, {
      signal,
      maxServerErrors: LOG_MAX_SERVER_ERRORS,
    }).then((r) => r.data);
  }

  /** One try, a short wait: the agent is stopping and must not hang on an absent server. */
  async goodbye(body: AgentGoodbye, timeoutMs: number): Promise<number> {
    const url = `${this.server}${AGENT_PROTOCOL_BASE}/goodbye`;
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...this.headers(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new ProtocolRejectedError('goodbye', res.status, await readDetail(res));
    const parsed = agentGoodbyeResponseSchema.safeParse(await res.json());
    if (!parsed.success) throw new ProtocolResponseError('goodbye', parsed.error.message);
    return parsed.data.data.released;
  }

  /** With `claim` in the body, the answer may bring the next runs (`runs`). */
  finish(
    body: AgentFinish,
    signal: AbortSignal,
  ): Promise<{ accepted: boolean; runs?: ClaimedRun[] | undefined }> {
    return this.call('finish', body, agentFinishResponseSchema, {
      signal,
      ...(body.claim ? { timeoutMs: DEFAULT_TIMEOUT_MS + body.claim.wait_seconds * 1000 } : {}),
    }).then((r) => r.data);
  }

  /**
   * `GET <server><downloadPath>`: retried until the server starts answering 200; the caller
   * streams the body (and retries the whole download itself if the stream breaks).
   */
  async download(downloadPath: string, signal: AbortSignal): Promise<Response> {
    // Only a path on our own server: the token must never be sent to another host.
    if (!downloadPath.startsWith('/') || downloadPath.startsWith('//')) {
      throw new ProtocolResponseError('download', `bad download path ${downloadPath}`);
    }
    return this.withRetry(
      'download',
      signal,
      async (attemptSignal) => {
        const url = `${this.server}${downloadPath}`;
        // The timeout covers waiting for the answer, not streaming the (possibly big) body.
        const controller = new AbortController();
        const timer = setTimeout(
          () => controller.abort(new Error('no answer within 30 s')),
          DEFAULT_TIMEOUT_MS,
        );
        try {
          const res = await fetch(url, {
            headers: this.headers(),
            signal: AbortSignal.any([attemptSignal, controller.signal]),
          });
          return { res, value: res };
        } finally {
          clearTimeout(timer);
        }
      },
      null,
    );
  }

  private call<T>(
    name: string,
    body: unknown,
    schema: z.ZodType<T>,
    { signal, timeoutMs = DEFAULT_TIMEOUT_MS, maxServerErrors }: CallOptions,
  ): Promise<T> {
    return this.withRetry(
      name,
      signal,
      async (attemptSignal) => {
        const url = `${this.server}${AGENT_PROTOCOL_BASE}/${name}`;
        const payload = typeof body === 'function' ? (body as () => unknown)() : body;
        const res =
          (await this.overStream(name, payload, attemptSignal)) ??
          (await fetch(url, {
            method: 'POST',
            headers: { ...this.headers(), 'content-type': 'application/json' },
            body: JSON.stringify(payload),
            signal: attemptSignal,
          }));
        if (!res.ok) return { res, value: undefined };
        // Read inside the attempt: a connection cut mid-body is retried like any network error.
        const text = await res.text();
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch (error) {
          throw new ProtocolResponseError(name, `invalid JSON: ${errorMessage(error)}`);
        }
        const parsed = schema.safeParse(json);
        if (!parsed.success) throw new ProtocolResponseError(name, parsed.error.message);
        return { res, value: parsed.data };
      },
      timeoutMs,
      maxServerErrors,
    );
  }

  /** The call's answer over the stream; null: it goes over HTTP (no stream, or not this call). */
  private async overStream(
    name: string,
    payload: unknown,
    signal: AbortSignal,
  ): Promise<Response | null> {
    const stream = this.stream;
    if (!stream || stream.unsupported || !STREAM_CALLS.has(name)) return null;
    try {
      const answer = await stream.request(
        this.server,
        name as AgentStreamOperation,
        payload,
        signal,
      );
      if (!answer) this.options.logger.info(`${this.server} offers no stream: calls go over HTTP`);
      return answer;
    } catch (error) {
      // A refused upgrade is judged as that answer to the call (401: the token; 503: retry).
      if (error instanceof StreamUpgradeError) return new Response(null, { status: error.status });
      throw error;
    }
  }

  private async withRetry<T>(
    name: string,
    signal: AbortSignal,
    attempt: (signal: AbortSignal) => Promise<{ res: Response; value: T | undefined }>,
    /** Per attempt; null: the attempt handles its own timeout. */
    timeoutMs: number | null = DEFAULT_TIMEOUT_MS,
    maxServerErrors = Infinity,
  ): Promise<T> {
    const backoff = new Backoff(this.options.backoff ?? DEFAULT_BACKOFF);
    let serverErrors = 0;
    for (;;) {
      if (signal.aborted) throw abortReason(signal);
      let problem: string;
      try {
        const { res, value } = await attempt(
          timeoutMs === null ? signal : AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
        );
        if (res.ok) {
          this.markReachable();
          return value as T;
        }
        const detail = await readDetail(res);
        if (res.status === 401) {
          this.markReachable();
          this.options.onUnauthorized?.(name);
          throw new UnauthorizedError();
        }
        if (res.status !== 429 && res.status < 500) {
          this.markReachable();
          throw new ProtocolRejectedError(name, res.status, detail);
        }
        problem = `the server answered ${res.status}`;
        if (res.status >= 500) {
          serverErrors += 1;
          if (serverErrors >= maxServerErrors) throw new ProtocolGaveUpError(name, problem);
        }
      } catch (error) {
        if (
          error instanceof UnauthorizedError ||
          error instanceof ProtocolRejectedError ||
          error instanceof ProtocolResponseError ||
          error instanceof ProtocolGaveUpError
        ) {
          throw error;
        }
        if (signal.aborted) throw abortReason(signal);
        problem = errorMessage(error);
      }
      this.unreachable = true;
      this.failOver(problem);
      const delay = backoff.nextDelayMs();
      this.options.logger.warn(`${name}: ${problem}; retrying in ${formatDelay(delay)}`);
      await sleep(delay, signal);
    }
  }

  /** The next instance, when there are several: the one called did not answer usefully. */
  private failOver(problem: string): void {
    const { servers, logger } = this.options;
    if (servers.length < 2) return;
    const from = this.server;
    this.current = (this.current + 1) % servers.length;
    logger.warn(`${from}: ${problem}; trying ${this.server}`);
  }

  private markReachable(): void {
    if (!this.unreachable) return;
    this.unreachable = false;
    this.options.logger.info('the server is reachable again');
    this.options.onReconnect?.();
  }

  private headers(): Record<string, string> {
    return { authorization: `Bearer ${this.options.token}` };
  }
}

export function formatDelay(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A short, single-line excerpt of an error answer, for the agent's own log. */
async function readDetail(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof body.message === 'string') {
      return typeof body.code === 'string' ? `${body.code}: ${body.message}` : body.message;
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.replace(/\s+/g, ' ').slice(0, 200);
}
