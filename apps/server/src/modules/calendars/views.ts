import { QueryBuilder } from 'drizzle-orm/pg-core';
import { rotaCalendars } from '../../db/schema/calendars.js';

const qb = new QueryBuilder();

/**
 * Read-only: a calendar's zone and excluded days, for the scheduler (which reads the calendars of
 * its due schedulings in one statement). Writes go through CalendarService.
 */
export const calendarDaysView = qb
  .select({
    rota_calendars_id: rotaCalendars.rota_calendars_id,
    rota_clients_id: rotaCalendars.rota_clients_id,
    time_zone: rotaCalendars.time_zone,
    excluded_dates: rotaCalendars.excluded_dates,
  })
  .from(rotaCalendars)
  .as('calendar_days');
