import { QueryBuilder } from 'drizzle-orm/pg-core';
import { rotaRobotFields } from '../../db/schema.js';

const qb = new QueryBuilder();

/** Read-only: a robot's field definitions, which a task's data is checked against. */
export const robotFieldDefinitions = qb
  .select({
    rota_robot_fields_id: rotaRobotFields.rota_robot_fields_id,
    rota_clients_id: rotaRobotFields.rota_clients_id,
    rota_robots_id: rotaRobotFields.rota_robots_id,
    name: rotaRobotFields.name,
    type: rotaRobotFields.type,
    required: rotaRobotFields.required,
  })
  .from(rotaRobotFields)
  .as('robot_field_definitions');
