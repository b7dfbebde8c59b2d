import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rotaClients } from '../../db/schema/clients.js';

/** Every client's retention settings, for the nightly pruning (retention module). */
export function clientRetentions(db: Db) {
  return db
    .select({
      rota_clients_id: rotaClients.rota_clients_id,
      retention_days: rotaClients.retention_days,
      audit_retention_days: rotaClients.audit_retention_days,
    })
    .from(rotaClients)
    .orderBy(asc(rotaClients.rota_clients_id));
}

/** Whether a client's agents update on their own (agents module, its update offers). */
export async function clientAutoUpdatesAgents(db: Db, clientId: number): Promise<boolean> {
  const [row] = await db
    .select({ on: rotaClients.auto_update_agents })
    .from(rotaClients)
    .where(eq(rotaClients.rota_clients_id, clientId));
  return row?.on ?? false;
}

/** Turns a client's automatic agent updates on or off (agents module). */
export async function setClientAutoUpdatesAgents(
  db: Db,
  clientId: number,
  enabled: boolean,
): Promise<void> {
  await db
    .update(rotaClients)
    .set({ auto_update_agents: enabled, updated_at: sql`now()` })
    .where(eq(rotaClients.rota_clients_id, clientId));
}
