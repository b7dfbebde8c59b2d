import type {
  Client,
  ClientCreate,
  ClientListQuery,
  ClientUpdate,
  ListResponse,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { userClients } from '../../db/schema.js';
import type { Actor } from '../../http/types.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import { findClient, listClients, renameClient, type ClientRow } from './repository.js';
import { provisionClient } from './provision-client.js';

const toClient = (row: ClientRow): Client => ({
  ...row,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_client_name' }]);

/**
 * Clients (tenants), for platform administrators only: everyone else reaches just the clients
 * they belong to, through their session. Clients are not deleted (docs/decisions.md).
 */
export class ClientService {
  constructor(private readonly db: Db) {}

  private assertPlatformAdmin(actor: Actor) {
    if (!actor.user.is_platform_admin) throw forbidden();
  }

  list(actor: Actor, query: ClientListQuery): Promise<ListResponse<Client>> {
    this.assertPlatformAdmin(actor);
    return listClients(this.db, query, toClient);
  }

  async show(actor: Actor, id: number): Promise<Client> {
    this.assertPlatformAdmin(actor);
    const row = await findClient(this.db, id);
    if (!row) throw notFound();
    return toClient(row);
  }

  /**
   * A client as every client starts (Administrator profile, status items), and its creator a
   * member with that profile, so they can select it and set it up at once. One transaction.
   */
  async create(actor: Actor, input: ClientCreate): Promise<Client> {
    this.assertPlatformAdmin(actor);
    try {
      const id = await this.db.transaction(async (tx) => {
        const { client, profile } = await provisionClient(tx, input.name);
        await tx.insert(userClients).values({
          users_id: actor.user.users_id,
          rota_clients_id: client.rota_clients_id,
          profiles_id: profile.profiles_id,
        });
        return client.rota_clients_id;
      });
      return await this.show(actor, id);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  async update(actor: Actor, input: ClientUpdate): Promise<void> {
    this.assertPlatformAdmin(actor);
    try {
      if (!(await renameClient(this.db, input.id, input.name))) throw notFound();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }
}
