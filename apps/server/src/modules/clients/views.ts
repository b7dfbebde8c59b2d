import { QueryBuilder } from 'drizzle-orm/pg-core';
import { rotaClients } from '../../db/schema/clients.js';

const qb = new QueryBuilder();

/**
 * Read-only: what other modules may join on (PostgreSQL inlines it: same plan as a join). A
 * leaf (it imports the schema only), so modules joining each other's views import no cycle.
 */
export const clientNames = qb
  .select({ rota_clients_id: rotaClients.rota_clients_id, name: rotaClients.name })
  .from(rotaClients)
  .as('client_names');

/** Which clients require a second factor of their members (module mfa). */
export const clientMfaPolicies = qb
  .select({ rota_clients_id: rotaClients.rota_clients_id, require_mfa: rotaClients.require_mfa })
  .from(rotaClients)
  .as('client_mfa_policies');

/** Which clients' agents update themselves (module agents, its update offers). */
export const clientAgentUpdatePolicies = qb
  .select({
    rota_clients_id: rotaClients.rota_clients_id,
    auto_update_agents: rotaClients.auto_update_agents,
  })
  .from(rotaClients)
  .as('client_agent_update_policies');

/** Which clients accept signed packages only (module packages and the agents' claims). */
export const clientPackagePolicies = qb
  .select({
    rota_clients_id: rotaClients.rota_clients_id,
    require_signed_packages: rotaClients.require_signed_packages,
  })
  .from(rotaClients)
  .as('client_package_policies');
