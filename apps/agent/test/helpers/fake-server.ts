import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { AGENT_PROTOCOL_BASE, AGENT_STREAM_PATH, type ClaimedRun } from '@rota/contract';

export interface RecordedRequest {
  call: string;
  body: any;
  authorization: string | undefined;
  at: number;
  /** How the call came: a message on the stream, or an HTTP request. */
  via?: 'stream' | 'http';
}

/** What a handler answers; `destroy` cuts the connection like an unreachable server. */
export type Answer = { status: number; body?: unknown } | 'destroy';
export type Handler = (body: any, request: RecordedRequest) => Answer | Promise<Answer>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What `hello` answers: an older server's fields, then `extra` (`claim_is_heartbeat`…). */
export function helloAnswer(extra: Record<string, unknown> = {}): Answer {
  return {
    status: 200,
    body: {
      data: {
        rota_nodes_id: 1,
        name: 'test-agent',
        rota_vms_id: 1,
        heartbeat_seconds: 1,
        lease_seconds: 30,
        claim_wait_seconds: 25,
        ...extra,
      },
    },
  };
}

/** A finish of execution 1's first attempt, successful. */
export const successfulFinish = {
  execution_id: 1,
  attempt: 1,
  status: 'success' as const,
  exit_code: 0,
  message: null,
};

/**
 * A tiny stand-in for the Rota server, speaking the agent protocol on 127.0.0.1: it records
 * every call and answers from overridable handlers.
 */
export class FakeRotaServer {
  readonly requests: RecordedRequest[] = [];
  /**
   * What claims hand out, in order: queue runs before the agent claims. A claim that finds the
   * queue empty and may wait (`wait_seconds` > 0) is held open, as the server's long poll holds
   * it, until the server closes; one that may not is answered with no run at once.
   */
  readonly claimQueue: ClaimedRun[] = [];
  /** Ends the claims held open: called on close. */
  private readonly heldClaims: ((answer: Answer) => void)[] = [];
  /** download path → bytes. */
  readonly packages = new Map<string, Buffer>();
  readonly handlers: Record<string, Handler> = {
    hello: () => helloAnswer(),
    heartbeat: () => ({ status: 200, body: { data: { cancel: [] } } }),
    claim: (body: { wait_seconds?: number } | null) => {
      const next = this.claimQueue.shift();
      if (next) return { status: 200, body: { data: next } };
      if (!body?.wait_seconds) return { status: 200, body: { data: null } };
      // Not answered when its wait is up: no test lasts a wait (25 s), and an empty answer on
      // a timer would only make the agent's next claim a matter of timing.
      return new Promise<Answer>((resolve) => this.heldClaims.push(resolve));
    },
    logs: () => ({ status: 200, body: { data: { cancel: false } } }),
    finish: () => ({ status: 200, body: { data: { accepted: true } } }),
  };
  /**
   * The stream (AGENT_STREAM_PATH): answered like the server does when `accept`, else the
   * upgrade gets this HTTP status. Offer it with hello's `stream: true` (helloAnswer).
   */
  stream: 'accept' | number = 404;
  /** Upgrades asked for, with the authorization each carried. */
  readonly upgrades: (string | undefined)[] = [];
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('upgrade', (req, socket, head) => {
      this.upgrades.push(req.headers.authorization);
      if (this.stream !== 'accept' || req.url !== AGENT_STREAM_PATH) {
        const status = this.stream === 'accept' ? 404 : this.stream;
        socket.end(`HTTP/1.1 ${status} Refused\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        ws.on('message', (data) => {
          const { id, op, body } = JSON.parse(data.toString()) as {
            id: number;
            op: string;
            body: unknown;
          };
          const record: RecordedRequest = {
            call: op,
            body,
            authorization: req.headers.authorization,
            at: Date.now(),
            via: 'stream',
          };
          this.requests.push(record);
          void this.answer(op, record).then((answer) => {
            if (answer === 'destroy') return ws.terminate();
            ws.send(JSON.stringify({ id, status: answer.status, body: answer.body ?? {} }));
          });
        });
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    this.server?.closeAllConnections();
    for (const release of this.heldClaims.splice(0)) release('destroy');
    await new Promise((resolve) => this.server?.close(resolve));
  }

  get openStreams(): number {
    return this.wss.clients.size;
  }

  calls(call: string): RecordedRequest[] {
    return this.requests.filter((r) => r.call === call);
  }

  /** Resolves when `predicate` holds, polling; fails the test after `timeoutMs`. */
  async until(predicate: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(20);
    }
  }

  private async answer(call: string, record: RecordedRequest): Promise<Answer> {
    const handler = this.handlers[call];
    return handler
      ? handler(record.body, record)
      : { status: 404, body: { code: 'not_found', message: 'no such call' } };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '';
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const authorization = req.headers.authorization;

    const pkg = req.method === 'GET' ? this.packages.get(url) : undefined;
    if (pkg) {
      this.requests.push({ call: 'download', body: url, authorization, at: Date.now() });
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(pkg);
      return;
    }
    const prefix = `${AGENT_PROTOCOL_BASE}/`;
    const call = url.startsWith(prefix) ? url.slice(prefix.length) : url;
    const record: RecordedRequest = {
      call,
      body: text ? JSON.parse(text) : null,
      authorization,
      at: Date.now(),
      via: 'http',
    };
    this.requests.push(record);
    const answer = await this.answer(call, record);
    if (answer === 'destroy') {
      req.socket.destroy();
      return;
    }
    res
      .writeHead(answer.status, { 'content-type': 'application/json' })
      .end(JSON.stringify(answer.body ?? {}));
  }
}
