import type {
  ListResponse,
  OidcMapping,
  OidcMappingCreate,
  OidcMappingListQuery,
  OidcMappingUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../http/types.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { assertPlatformAdmin } from '../../lib/platform-admin.js';
import { iso } from '../../lib/list-query.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import type { UserClientService } from '../user-clients/service.js';
import {
  deleteMapping,
  findMapping,
  insertMapping,
  listMappings,
  updateMapping,
  type MappingRow,
} from './repository.js';

const toMapping = (row: MappingRow): OidcMapping => ({
  ...row,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const duplicate = () =>
  new AppError('conflict', [{ field: 'claim_value', message: 'duplicate_oidc_mapping' }]);

/**
 * Claim value → client and profile, for platform administrators: a mapping hands
 * out memberships in any client, so a client's own administrators may not write one. Each
 * change is recorded in the mapped client's audit log.
 */
export class OidcMappingService {
  constructor(
    private readonly db: Db,
    private readonly userClients: UserClientService,
    private readonly audit: AuditService,
  ) {}

  list(actor: Actor, query: OidcMappingListQuery): Promise<ListResponse<OidcMapping>> {
    assertPlatformAdmin(actor);
    return listMappings(this.db, query, toMapping);
  }

  private async read(db: Db, id: number): Promise<OidcMapping> {
    const row = await findMapping(db, id);
    if (!row) throw notFound();
    return toMapping(row);
  }

  private async checkProfile(db: Db, input: OidcMappingCreate) {
    if (!(await this.userClients.profileOfClient(db, input.rota_clients_id, input.profiles_id))) {
      throw invalidField('profiles_id', 'profile_not_found');
    }
  }

  async create(actor: Actor, input: OidcMappingCreate, author: AuditAuthor): Promise<OidcMapping> {
    assertPlatformAdmin(actor);
    try {
      return await this.audit.recorded(
        author,
        {
          ...auditOf.created<OidcMapping>('oidc_mapping', (m) => m.oidc_mappings_id),
          clientId: input.rota_clients_id,
        },
        async (tx) => {
          await this.checkProfile(tx, input);
          return this.read(tx, await insertMapping(tx, input));
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicate();
      throw error;
    }
  }

  async update(actor: Actor, input: OidcMappingUpdate, author: AuditAuthor): Promise<void> {
    assertPlatformAdmin(actor);
    const { id, ...values } = input;
    const current = await this.read(this.db, id);
    try {
      await this.audit.recorded(
        author,
        {
          ...auditOf.changed('oidc_mapping', id, (tx) => this.read(tx, id)),
          clientId: current.rota_clients_id,
        },
        async (tx) => {
          await this.checkProfile(tx, values);
          await updateMapping(tx, id, values);
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicate();
      throw error;
    }
  }

  async remove(actor: Actor, id: number, author: AuditAuthor): Promise<void> {
    assertPlatformAdmin(actor);
    const current = await this.read(this.db, id);
    await this.audit.recorded(
      author,
      {
        ...auditOf.deleted('oidc_mapping', id, (tx) => this.read(tx, id)),
        clientId: current.rota_clients_id,
      },
      (tx) => deleteMapping(tx, id),
    );
  }
}
