import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EVENTS_STREAM_PATH, type LiveEvent } from '@rota/contract';
import { runNow } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let c: Tenants;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
});

/** A real SSE connection; `events` fills as they arrive. */
async function openStream(token: string) {
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

it("streams the selected client's execution events, and only to that client", async () => {
  const robot = await createRobot(c.admin, 'Live robot');
  const mine = await openStream(c.adminToken);
  const theirs = await openStream(c.otherToken);
  const id = await runNow(c.admin, { id: robot });
  await mine.waitFor(() => mine.events.length > 0);
  expect(mine.events).toEqual([
    {
      type: 'execution',
      data: { type: 'execution', execution_id: id, rota_robots_id: robot, status: 'queued' },
    },
  ]);
  // Give the other client's stream the same time to (wrongly) receive something.
  await new Promise((r) => setTimeout(r, 300));
  expect(theirs.events).toEqual([]);
  await mine.close();
  await theirs.close();
});

it('refuses a stream without a session', async () => {
  const res = await fetch(`${base}${EVENTS_STREAM_PATH}`);
  expect(res.status).toBe(401);
});
