import WebSocket from 'ws';
import { AGENT_STREAM_PATH, type AgentStreamOperation } from '@rota/contract';

export interface StreamAnswer {
  status: number;
  body: any;
}

/** An agent's stream (AGENT_STREAM_PATH) as `apps/agent` speaks it, for tests. */
export interface TestStream {
  socket: WebSocket;
  call(op: AgentStreamOperation | string, body: unknown): Promise<StreamAnswer>;
  /** The close code and reason once the stream closed. */
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens a stream; rejects with the HTTP status when the upgrade is refused. */
export async function openStream(
  origin: string,
  token: string | null,
  path = AGENT_STREAM_PATH,
): Promise<TestStream> {
  const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    perMessageDeflate: false,
  });
  const waiting = new Map<number, (answer: StreamAnswer) => void>();
  let next = 0;
  socket.on('message', (data) => {
    const { id, ...answer } = JSON.parse(data.toString()) as StreamAnswer & { id: number };
    waiting.get(id)?.(answer);
    waiting.delete(id);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`refused ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
  return {
    socket,
    closed,
    call(op, body) {
      next += 1;
      const id = next;
      socket.send(JSON.stringify({ id, op, body }));
      return new Promise((resolve) => waiting.set(id, resolve));
    },
  };
}
