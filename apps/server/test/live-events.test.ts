import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EVENTS_STREAM_PATH } from '@rota/contract';
import { runNow } from './helpers/engine.js';
import { openStream } from './helpers/event-stream.js';
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

it("streams the selected client's execution events, and only to that client", async () => {
  const robot = await createRobot(c.admin, 'Live robot');
  const mine = await openStream(base, c.adminToken);
  const theirs = await openStream(base, c.otherToken);
  const id = await runNow(c.admin, { id: robot });
  await mine.waitFor(() => mine.events.length > 0);
  expect(mine.events).toEqual([
    {
      type: 'execution',
      data: { type: 'execution', execution_id: id, rota_robots_id: robot, status: 'queued' },
    },
  ]);
  // The other client's own run comes after: had the first event reached their stream, it would
  // have come before this one, on the same connection.
  const theirRobot = await createRobot(c.other, 'Their live robot');
  const theirRun = await runNow(c.other, { id: theirRobot });
  await theirs.waitFor(() => theirs.events.length > 0);
  expect(theirs.events).toEqual([
    {
      type: 'execution',
      data: {
        type: 'execution',
        execution_id: theirRun,
        rota_robots_id: theirRobot,
        status: 'queued',
      },
    },
  ]);
  expect(mine.events).toHaveLength(1);
  await mine.close();
  await theirs.close();
});

it('refuses a stream without a session', async () => {
  const res = await fetch(`${base}${EVENTS_STREAM_PATH}`);
  expect(res.status).toBe(401);
});
