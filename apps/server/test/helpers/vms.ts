import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { rotaNodes } from '../../src/db/schema.js';
import type { client } from './test-app.js';

type Caller = ReturnType<typeof client>;

/** A VM made through the API, for tests of what runs on one (agents, schedulings). */
export async function createVm(as: Caller, name: string): Promise<number> {
  const res = await as.post('/api/rota/vm/api/v1/create', {
    name,
    hostname: `${name.toLowerCase().replaceAll(' ', '-')}.lan`,
  });
  expect(res.status).toBe(201);
  return res.body.data.rota_vms_id as number;
}

/** An agent made through the API; the answer is the only place its token is shown. */
export async function createAgent(as: Caller, name: string, vmId: number) {
  const res = await as.post('/api/rota/node/api/v1/create', { name, rota_vms_id: vmId });
  expect(res.status).toBe(201);
  return res.body.data as { rota_nodes_id: number; token: string };
}

/** Heartbeats are the engine's job (later issue); here they are written straight to the table. */
export async function setLastSeen(db: Db, agentId: number, secondsAgo: number) {
  await db
    .update(rotaNodes)
    .set({ last_seen_at: sql`now() - make_interval(secs => ${secondsAgo})` })
    .where(eq(rotaNodes.rota_nodes_id, agentId));
}
