/**
 * One simulated agent's stream (`/api/rota/agent/api/v1/stream`) for the load sides
 * of the benches: calls as messages, each answered by its id; opened again after it closed.
 */
import { createRequire } from 'node:module';
import type { WebSocket as WebSocketClass } from 'ws';

/** The server's own `ws` (the bench has none; the root's may be another major). */
const WebSocket = createRequire(new URL('../apps/server/package.json', import.meta.url))(
  'ws',
) as typeof WebSocketClass;

export interface StreamAnswer {
  /** 0: the stream closed before the answer. */
  status: number;
  body: { data?: unknown } | undefined;
}

export class AgentStreamClient {
  private socket: Promise<WebSocketClass> | null = null;
  private next = 0;
  private readonly waiting = new Map<number, (answer: StreamAnswer) => void>();

  constructor(
    private readonly address: string,
    private readonly token: string,
  ) {}

  /** Whether a stream is open or opening (a call now opens no new connection). */
  get connected(): boolean {
    return this.socket !== null;
  }

  async call(op: string, body: object): Promise<StreamAnswer> {
    const socket = await (this.socket ??= this.connect());
    this.next += 1;
    const id = this.next;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, op, body }));
    });
  }

  async close(): Promise<void> {
    (await this.socket)?.close();
  }

  private connect(): Promise<WebSocketClass> {
    const socket = new WebSocket(
      `${this.address.replace(/^http/, 'ws')}/api/rota/agent/api/v1/stream`,
      { headers: { authorization: `Bearer ${this.token}` }, perMessageDeflate: false },
    );
    socket.on('message', (data) => {
      const { id, status, body } = JSON.parse(String(data)) as StreamAnswer & { id: number };
      this.waiting.get(id)?.({ status, body });
      this.waiting.delete(id);
    });
    socket.once('close', () => {
      this.socket = null;
      for (const done of this.waiting.values()) done({ status: 0, body: undefined });
      this.waiting.clear();
    });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(socket));
      socket.once('error', (error) => {
        this.socket = null;
        reject(error);
      });
    });
  }
}
