import { QueryBuilder } from 'drizzle-orm/pg-core';
import { rotaVms } from '../../db/schema/vms.js';

const qb = new QueryBuilder();

/** Read-only: a VM's name and host, for lists of other modules that join on it. */
export const vmNames = qb
  .select({
    rota_vms_id: rotaVms.rota_vms_id,
    rota_clients_id: rotaVms.rota_clients_id,
    name: rotaVms.name,
    hostname: rotaVms.hostname,
  })
  .from(rotaVms)
  .as('vm_names');
