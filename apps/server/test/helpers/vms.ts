import { AGENT_ACTIVE_WINDOW_SECONDS } from '@rota/contract';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { rotaNodes } from '../../src/db/schema/index.js';
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

/**
 * As the heartbeat writes would leave it: a last seen inside the active window goes with
 * `online` (the connectivity filters rely on it); an older one leaves `online` as it was, like
 * an agent gone quiet that the engine has not yet marked offline.
 */
export async function setLastSeen(db: Db, agentId: number, secondsAgo: number) {
  await db
    .update(rotaNodes)
    .set({
      last_seen_at: sql`now() - make_interval(secs => ${secondsAgo})`,
      ...(secondsAgo < AGENT_ACTIVE_WINDOW_SECONDS ? { online: true } : {}),
    })
    .where(eq(rotaNodes.rota_nodes_id, agentId));
}
