import { expect } from 'vitest';
import { EVENTS_STREAM_PATH, type LiveEvent } from '@rota/contract';

/** A real SSE connection; `events` fills as they arrive. */
export async function openStream(base: string, token: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}${EVENTS_STREAM_PATH}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: { type: string; data: LiveEvent }[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let connected!: () => void;
  const ready = new Promise<void>((resolve) => (connected = resolve));
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(':')) connected();
        const type = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (type && data) events.push({ type, data: JSON.parse(data) as LiveEvent });
      }
    }
  })().catch(() => undefined);
  await ready;
  return {
    events,
    async waitFor(predicate: () => boolean, ms = 5000) {
      const until = Date.now() + ms;
      while (!predicate() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    },
    async close() {
      controller.abort();
      await pump;
    },
  };
}
