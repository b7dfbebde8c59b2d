import type { Db } from '../../db/client.js';
import { systemScope } from '../../lib/tenant-scope.js';
import { ProfileService } from '../profiles/service.js';
import { StatusItemService } from '../status-items/service.js';
import { insertClient, type ClientRetention } from './repository.js';

/**
 * A new client as every client starts: its "Administrator" profile holding the whole
 * catalogue and one status item per execution status. Runs inside the caller's
 * transaction so a client never exists half made.
 */
export async function provisionClient(tx: Db, name: string, retention: ClientRetention = {}) {
  const client = await insertClient(tx, name, retention);
  const scope = systemScope(client.rota_clients_id);
  const profile = await ProfileService.provisionAdministrator(tx, scope);
  await StatusItemService.provisionDefaults(tx, scope);
  return { client, profile };
}
