import {
  bigint,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, bytea } from './columns.js';

/**
 * Files kept in the database on PostgreSQL (robot packages by sha256, avatars by their served
 * name), so every instance serves them; the embedded setup keeps them on disk instead (migration
 * 0011, modules/blobs). `touched_at` is renewed whenever an upload reuses the bytes: the orphan
 * sweep only removes blobs untouched for its grace period.
 */
export const blobs = pgTable(
  'blobs',
  {
    blobs_id: bigint('blobs_id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    sha256: text('sha256').notNull(),
    size_bytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    created_at: createdAt(),
    touched_at: timestamp('touched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('blobs_kind_name_key').on(t.kind, t.name)],
);

/** A blob's bytes in 1 MiB pieces (`seq` from 0), so neither side holds a whole package. */
export const blobChunks = pgTable(
  'blob_chunks',
  {
    blobs_id: bigint('blobs_id', { mode: 'number' })
      .notNull()
      .references(() => blobs.blobs_id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.blobs_id, t.seq] })],
);
