import type {
  Client,
  ClientCreate,
  ClientProfileOption,
  ClientListQuery,
  ClientUpdate,
  ListResponse,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../http/types.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { assertPlatformAdmin } from '../../lib/platform-admin.js';
import { iso } from '../../lib/list-query.js';
import type { AuditAuthor, AuditService } from '../audit/service.js';
import type { UserClientService } from '../user-clients/service.js';
import {
  findClient,
  listClientProfiles,
  listClients,
  updateClient,
  type ClientRow,
} from './repository.js';
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
  constructor(
    private readonly db: Db,
    private readonly userClients: UserClientService,
    private readonly audit: AuditService,
  ) {}

  list(actor: Actor, query: ClientListQuery): Promise<ListResponse<Client>> {
    assertPlatformAdmin(actor);
    return listClients(this.db, query, toClient);
  }

  async show(actor: Actor, id: number): Promise<Client> {
    assertPlatformAdmin(actor);
    return this.showIn(this.db, id);
  }

  /** A client's profiles, for a platform administrator choosing one outside that client. */
  async profiles(actor: Actor, id: number): Promise<ClientProfileOption[]> {
    assertPlatformAdmin(actor);
    await this.showIn(this.db, id);
    return listClientProfiles(this.db, id);
  }

  private async showIn(db: Db, id: number): Promise<Client> {
    const row = await findClient(db, id);
    if (!row) throw notFound();
    return toClient(row);
  }

  /**
   * A client as every client starts (Administrator profile, status items), and its creator a
   * member with that profile, so they can select it and set it up at once. One transaction.
   */
  async create(actor: Actor, input: ClientCreate, author: AuditAuthor): Promise<Client> {
    assertPlatformAdmin(actor);
    try {
      return await this.db.transaction(async (tx) => {
        const { client, profile } = await provisionClient(tx, input.name, input);
        await this.userClients.add(tx, {
          users_id: actor.user.users_id,
          rota_clients_id: client.rota_clients_id,
          profiles_id: profile.profiles_id,
        });
        const created = await this.showIn(tx, client.rota_clients_id);
        // The new client's own record: where its administrators will read it.
        await this.audit.write(tx, author, {
          action: 'create',
          entity: 'client',
          entity_id: created.rota_clients_id,
          after: created,
          clientId: created.rota_clients_id,
        });
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  async update(actor: Actor, input: ClientUpdate, author: AuditAuthor): Promise<void> {
    assertPlatformAdmin(actor);
    try {
      await this.audit.recorded(
        author,
        {
          action: 'update',
          entity: 'client',
          entity_id: input.id,
          before: (tx) => this.showIn(tx, input.id),
          after: (tx) => this.showIn(tx, input.id),
          clientId: input.id,
        },
        async (tx) => {
          if (!(await updateClient(tx, input.id, input))) throw notFound();
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }
}
