import { sql } from 'drizzle-orm';
import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';

/** Connection settings injected into runs; the two secrets are sealed (SecretBox). */
export const rotaEnvironments = pgTable(
  'rota_environments',
  {
    rota_environments_id: integer('rota_environments_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    title: text('title').notNull(),
    db_url: text('db_url'),
    db_name: text('db_name'),
    db_user: text('db_user'),
    db_pass_sealed: text('db_pass_sealed'),
    /** The target (host, port, user, database) db_pass was typed for; null: not known. */
    db_pass_target: text('db_pass_target'),
    db_port: integer('db_port'),
    rota_token_sealed: text('rota_token_sealed'),
    rota_api_url: text('rota_api_url'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_environments_client_title_key').on(t.rota_clients_id, sql`lower(${t.title})`),
  ],
);
