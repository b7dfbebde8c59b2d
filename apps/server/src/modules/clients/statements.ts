import { asc } from 'drizzle-orm';
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
