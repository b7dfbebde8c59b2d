import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';
import { users } from './users.js';

/**
 * An alert rule: which events of the client (of which robots) go to one channel. The channel's
 * public part is `channel` (`{type, to}` for email, `{type, url}` for a webhook); its secret part
 * (a webhook's signing secret, a Slack or Teams URL) is sealed in `channel_secret`.
 */
export const rotaAlerts = pgTable(
  'rota_alerts',
  {
    rota_alerts_id: integer('rota_alerts_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    events: text('events').array().notNull(),
    /** Empty: every robot of the client. */
    robot_ids: integer('robot_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    channel_type: text('channel_type').notNull(),
    channel: jsonb('channel').$type<Record<string, unknown>>().notNull(),
    channel_secret: text('channel_secret'),
    /** The language its messages are written in (its author's when created). */
    language: text('language').notNull().default('en'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('rota_alerts_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`)],
);

/**
 * The durable outbox: every alertable event of a client, written in the transaction of the
 * change it reports (database triggers on executions, agents and tasks, migration 0018; the
 * scheduler for missed runs), then fanned out to the matching rules' deliveries once.
 */
export const rotaAlertEvents = pgTable(
  'rota_alert_events',
  {
    rota_alert_events_id: bigint('rota_alert_events_id', { mode: 'number' })
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    /** The public id (webhook body `id`). */
    event_uid: text('event_uid')
      .notNull()
      .default(sql`gen_random_uuid()::text`),
    rota_clients_id: tenant(),
    type: text('type').notNull(),
    /** The robot it is about; null for agent events. */
    rota_robots_id: integer('rota_robots_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    occurred_at: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    /** Its deliveries were created (or it matched no rule). */
    fanned_out: boolean('fanned_out').notNull().default(false),
  },
  (t) => [
    index('rota_alert_events_pending_idx')
      .on(t.rota_alert_events_id)
      .where(sql`not ${t.fanned_out}`),
    index('rota_alert_events_client_idx').on(t.rota_clients_id, t.rota_alert_events_id.desc()),
    index('rota_alert_events_occurred_idx').on(t.occurred_at),
  ],
);

/**
 * One message to one rule's channel: an event, or several of the same type for the same robot
 * within ten minutes folded into one (`count`). `status`: pending, delivered, failed.
 */
export const rotaAlertDeliveries = pgTable(
  'rota_alert_deliveries',
  {
    rota_alert_deliveries_id: bigint('rota_alert_deliveries_id', { mode: 'number' })
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    /** `X-Rota-Delivery`: stable across retries. */
    delivery_uid: text('delivery_uid')
      .notNull()
      .default(sql`gen_random_uuid()::text`),
    rota_clients_id: tenant(),
    rota_alerts_id: integer('rota_alerts_id')
      .notNull()
      .references(() => rotaAlerts.rota_alerts_id, { onDelete: 'cascade' }),
    /** The latest event folded into it; null for a "send test". */
    rota_alert_events_id: bigint('rota_alert_events_id', { mode: 'number' }).references(
      () => rotaAlertEvents.rota_alert_events_id,
      { onDelete: 'cascade' },
    ),
    event_type: text('event_type').notNull(),
    rota_robots_id: integer('rota_robots_id'),
    count: integer('count').notNull().default(1),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    response_code: integer('response_code'),
    last_error: text('last_error'),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }),
    /** An instance is sending it until then (a crash mid-send: another retries after). */
    locked_until: timestamp('locked_until', { withTimezone: true }),
    first_attempt_at: timestamp('first_attempt_at', { withTimezone: true }),
    delivered_at: timestamp('delivered_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('rota_alert_deliveries_due_idx')
      .on(t.next_attempt_at)
      .where(sql`${t.status} = 'pending'`),
    index('rota_alert_deliveries_alert_idx').on(
      t.rota_alerts_id,
      t.rota_alert_deliveries_id.desc(),
    ),
    index('rota_alert_deliveries_group_idx').on(
      t.rota_alerts_id,
      t.event_type,
      t.rota_robots_id,
      t.created_at.desc(),
    ),
  ],
);

/** Up to which event a user has read the bell of a client. */
export const alertReads = pgTable(
  'alert_reads',
  {
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    rota_clients_id: tenant(),
    seen_event_id: bigint('seen_event_id', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.users_id, t.rota_clients_id] })],
);
