import type { ListResponse, Profile, ProfileListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { listMeta } from '../../lib/pagination.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { findProfile, listProfiles } from './repository.js';

type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfile>>>;

const toProfile = (row: ProfileRow): Profile => ({
  ...row,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** Profiles of the selected client (read side; issue 5 adds the writes). */
export class ProfileService {
  constructor(private readonly db: Db) {}

  async list(scope: TenantScope, query: ProfileListQuery): Promise<ListResponse<Profile>> {
    const { rows, total } = await listProfiles(this.db, scope, query);
    return { data: rows.map(toProfile), meta: listMeta(query, total) };
  }

  async show(scope: TenantScope, id: number): Promise<Profile> {
    const row = await findProfile(this.db, scope, id);
    if (!row) throw notFound();
    return toProfile(row);
  }
}
