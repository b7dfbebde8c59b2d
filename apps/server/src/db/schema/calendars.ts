import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';

/** Business calendars: dates on which schedulings that name them queue no run. */
export const rotaCalendars = pgTable(
  'rota_calendars',
  {
    rota_calendars_id: integer('rota_calendars_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    /** IANA time zone the excluded dates are days of. */
    time_zone: text('time_zone').notNull(),
    /** `YYYY-MM-DD`, sorted, unique. */
    excluded_dates: text('excluded_dates')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_calendars_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`),
    index('rota_calendars_client_name_idx').on(t.rota_clients_id, t.name),
  ],
);
