import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Cross-instance engine bookkeeping (e.g. when the reaper last ran), by key. */
export const engineState = pgTable('engine_state', {
  key: text('key').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
});
