import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';

/**
 * Who did what, append-only (a trigger refuses UPDATE and DELETE). Actor and client are copied,
 * not referenced, so the record outlives the user or the client it names.
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    audit_logs_id: bigint('audit_logs_id', { mode: 'number' })
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_clients_id: integer('rota_clients_id'),
    users_id: integer('users_id'),
    user_name: text('user_name'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entity_id: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    request_id: text('request_id'),
    /** The personal API key the change was made with (its name); null: a session. */
    api_key_name: text('api_key_name'),
    created_at: createdAt(),
  },
  (t) => [
    index('audit_logs_client_created_idx').on(t.rota_clients_id, t.created_at.desc()),
    index('audit_logs_user_idx').on(t.users_id, t.created_at.desc()),
  ],
);
