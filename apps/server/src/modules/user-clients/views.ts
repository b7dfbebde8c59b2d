import { QueryBuilder } from 'drizzle-orm/pg-core';
import { userClients } from '../../db/schema/user-clients.js';

const qb = new QueryBuilder();

/**
 * Read-only: who belongs to which client with which profile, for other modules' joins and
 * counts (PostgreSQL inlines it). A leaf (it imports the schema only), so views joining each
 * other form no import cycle.
 */
export const memberships = qb
  .select({
    user_clients_id: userClients.user_clients_id,
    users_id: userClients.users_id,
    rota_clients_id: userClients.rota_clients_id,
    profiles_id: userClients.profiles_id,
  })
  .from(userClients)
  .as('memberships');
