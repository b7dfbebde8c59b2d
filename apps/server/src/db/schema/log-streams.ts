import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';

/**
 * A syslog destination of one client: its audit records and run events go there as RFC 5424
 * messages over TCP or TLS. A TLS destination's CA certificate is sealed in `ca_certificate`.
 */
export const rotaLogStreams = pgTable(
  'rota_log_streams',
  {
    rota_log_streams_id: integer('rota_log_streams_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    transport: text('transport').notNull(),
    host: text('host').notNull(),
    port: integer('port').notNull(),
    /** `audit`, `execution`: which kinds of event the stream carries. */
    events: text('events').array().notNull(),
    ca_certificate: text('ca_certificate'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_log_streams_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`),
  ],
);

/**
 * The streams' outbox: one row per event and stream, written by database triggers in the
 * transaction of the change it reports (migration 0036), removed once delivered.
 */
export const rotaLogStreamOutbox = pgTable(
  'rota_log_stream_outbox',
  {
    rota_log_stream_outbox_id: bigint('rota_log_stream_outbox_id', { mode: 'number' })
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_log_streams_id: integer('rota_log_streams_id')
      .notNull()
      .references(() => rotaLogStreams.rota_log_streams_id, { onDelete: 'cascade' }),
    rota_clients_id: tenant(),
    event_uid: text('event_uid')
      .notNull()
      .default(sql`gen_random_uuid()::text`),
    /** `audit`, `execution.started`, `execution.finished`, `test`. */
    kind: text('kind').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    occurred_at: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    first_attempt_at: timestamp('first_attempt_at', { withTimezone: true }),
    locked_until: timestamp('locked_until', { withTimezone: true }),
    last_error: text('last_error'),
    created_at: createdAt(),
  },
  (t) => [
    index('rota_log_stream_outbox_due_idx')
      .on(t.rota_log_streams_id, t.next_attempt_at)
      .where(sql`${t.status} = 'pending'`),
  ],
);
