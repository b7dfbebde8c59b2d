import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';
import { rotaRobots } from './robots.js';

export const rotaRobotFields = pgTable(
  'rota_robot_fields',
  {
    rota_robot_fields_id: integer('rota_robot_fields_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_robots_id: integer('rota_robots_id')
      .notNull()
      .references(() => rotaRobots.rota_robots_id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    label: text('label').notNull(),
    type: text('type').notNull(),
    required: boolean('required').notNull().default(false),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_robot_fields_robot_name_key').on(t.rota_robots_id, sql`lower(${t.name})`),
    index('rota_robot_fields_client_idx').on(t.rota_clients_id, t.name),
    index('rota_robot_fields_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
    index('rota_robot_fields_label_trgm').using('gin', t.label.op('gin_trgm_ops')),
  ],
);
