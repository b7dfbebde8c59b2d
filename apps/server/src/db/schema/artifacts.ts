import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { tenant } from './clients.js';
import { rotaExecutions } from './executions.js';

/** Evidence a run uploaded (robot API `artifact/upload`); the bytes are in the blob store. */
export const rotaArtifacts = pgTable(
  'rota_artifacts',
  {
    rota_artifacts_id: integer('rota_artifacts_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_executions_id: integer('rota_executions_id')
      .notNull()
      .references(() => rotaExecutions.rota_executions_id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    media_type: text('media_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    /** The blob store's name for the bytes. */
    blob_name: text('blob_name').notNull(),
    created_at: createdAt(),
  },
  (t) => [index('rota_artifacts_execution_idx').on(t.rota_executions_id, t.rota_artifacts_id)],
);
