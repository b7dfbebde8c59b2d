import { ADMINISTRATOR_PROFILE_NAME, DEFAULT_STATUS_ITEMS, PERMISSIONS } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { profiles, rotaClients, rotaStatusItems } from '../../db/schema.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * A new client as every client starts (issue 5): its "Administrator" profile holding the whole
 * catalogue and one status item per execution status (DESIGN §6). Runs inside the caller's
 * transaction so a client never exists half made.
 */
export async function provisionClient(tx: Tx | Db, name: string) {
  const [client] = await tx.insert(rotaClients).values({ name }).returning();
  const clientId = client!.rota_clients_id;
  const [profile] = await tx
    .insert(profiles)
    .values({
      rota_clients_id: clientId,
      name: ADMINISTRATOR_PROFILE_NAME,
      permissions: [...PERMISSIONS],
    })
    .returning();
  await tx
    .insert(rotaStatusItems)
    .values(DEFAULT_STATUS_ITEMS.map((item) => ({ ...item, rota_clients_id: clientId })));
  return { client: client!, profile: profile! };
}
