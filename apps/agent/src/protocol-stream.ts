import WebSocket from 'ws';
import {
  AGENT_STREAM_PATH,
  agentStreamAnswerSchema,
  type AgentStreamOperation,
} from '@rota/contract';
import { abortReason } from './backoff.js';

interface Pending {
  socket: WebSocket;
  resolve: (answer: Response) => void;
  reject: (error: Error) => void;
}

/** Upgrade answers that mean "no stream here" (an older server, a proxy without WebSockets). */
const NO_STREAM = new Set([400, 404, 405, 426, 501]);
const HANDSHAKE_TIMEOUT_MS = 10_000;

/**
 * The agent's side of the stream: calls as messages on one WebSocket, each answer
 * handed back as the Response the same call over HTTP would have had, so the protocol client
 * retries and judges it exactly alike. A call whose signal aborts (its timeout, the agent
 * stopping) cuts the whole stream: the server then gives back any run it was handing to it,
 * and every call in flight is retried on a new one, as each is safe to send again.
 */
export class ProtocolStream {
  private socket: WebSocket | null = null;
  private opening: Promise<WebSocket | null> | null = null;
  private origin: string | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** The server answered the upgrade with "no such thing": HTTP from now on. */
  unsupported = false;

  constructor(private readonly token: string) {}

  /**
   * `op` on `origin`'s stream; null when that server has no stream (the caller uses HTTP).
   * Rejects like fetch when the stream cannot be opened or closes before the answer.
   */
  async request(
    origin: string,
    op: AgentStreamOperation,
    body: unknown,
    signal: AbortSignal,
  ): Promise<Response | null> {
    if (signal.aborted) throw abortReason(signal);
    const socket = await this.connect(origin, signal);
    if (!socket) return null;
    this.nextId += 1;
    const id = this.nextId;
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        reject(abortReason(signal));
        // Its answer may still come, with runs in it: only a closed stream makes sure the
        // server takes them back at once.
        socket.terminate();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        socket,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      socket.send(JSON.stringify({ id, op, body }));
    });
  }

  /** Closes the stream (the agent stopped); calls in flight fail as on a lost connection. */
  close(): void {
    this.socket?.close(1000, 'agent stopping');
    this.socket = null;
  }

  private async connect(origin: string, signal: AbortSignal): Promise<WebSocket | null> {
    if (this.origin !== origin) {
      // The protocol client moved to another instance: so does the stream.
      this.socket?.terminate();
      this.socket = null;
      this.opening = null;
      this.origin = origin;
    }
    if (this.socket?.readyState === WebSocket.OPEN) return this.socket;
    this.opening ??= this.open(origin).finally(() => (this.opening = null));
    const socket = await raceAbort(this.opening, signal);
    if (!socket) this.unsupported = true;
    return socket;
  }

  private open(origin: string): Promise<WebSocket | null> {
    const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}${AGENT_STREAM_PATH}`, {
      headers: { authorization: `Bearer ${this.token}` },
      perMessageDeflate: false,
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
    });
    return new Promise<WebSocket | null>((resolve, reject) => {
      let settled = false;
      socket.once('open', () => {
        settled = true;
        // Opened for an instance the client has since left: not this one's stream.
        if (this.origin !== origin) {
          socket.terminate();
          return reject(new Error('the stream moved to another server'));
        }
        this.socket = socket;
        resolve(socket);
      });
      socket.once('unexpected-response', (_request, response) => {
        settled = true;
        const status = response.statusCode ?? 0;
        response.resume();
        socket.terminate();
        if (NO_STREAM.has(status)) return resolve(null);
        // 401 and the rest are judged as the same answer over HTTP would be: a call gets it.
        reject(new StreamUpgradeError(status));
      });
      socket.on('error', (error) => {
        if (!settled) {
          settled = true;
          reject(error);
        }
      });
      socket.on('message', (data) => this.receive(socket, data.toString()));
      socket.once('close', (code) => {
        if (this.socket === socket) this.socket = null;
        const error = new Error(`the stream closed (${code})`);
        for (const [id, waiter] of this.pending) {
          if (waiter.socket !== socket) continue;
          this.pending.delete(id);
          waiter.reject(error);
        }
      });
    });
  }

  private receive(socket: WebSocket, text: string): void {
    let answer;
    try {
      answer = agentStreamAnswerSchema.parse(JSON.parse(text));
    } catch {
      // Not this protocol: every call on it is retried on a new stream.
      socket.terminate();
      return;
    }
    const waiter = this.pending.get(answer.id);
    if (!waiter) return;
    this.pending.delete(answer.id);
    if (answer.status < 200 || answer.status > 599) {
      waiter.reject(new Error(`the stream answered status ${answer.status}`));
      return;
    }
    waiter.resolve(
      new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      }),
    );
  }
}

/** The upgrade was answered with this HTTP status instead of a stream. */
export class StreamUpgradeError extends Error {
  constructor(readonly status: number) {
    super(`the server answered ${status} to the stream's upgrade`);
    this.name = 'StreamUpgradeError';
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
