import { QueryBuilder } from 'drizzle-orm/pg-core';
import { profiles } from '../../db/schema/profiles.js';

const qb = new QueryBuilder();

/**
 * Read-only: a profile's client, name and permissions, for other modules' joins (PostgreSQL
 * inlines it). A leaf (it imports the schema only), so views joining each other form no cycle.
 */
export const profileGrants = qb
  .select({
    profiles_id: profiles.profiles_id,
    rota_clients_id: profiles.rota_clients_id,
    name: profiles.name,
    permissions: profiles.permissions,
  })
  .from(profiles)
  .as('profile_grants');
