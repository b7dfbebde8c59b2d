import { z } from 'zod';
import { idSchema, isoDateSchema, listQuerySchema, requiredTextSchema } from './common.js';
import { msg } from './messages.js';
import { timeZoneSchema } from './schedulings.js';

/** A calendar holds at most this many excluded dates (about 27 years of holidays and weekends). */
export const CALENDAR_MAX_DATES = 10000;

/**
 * A business calendar: schedulings that name it queue no run on its excluded dates, days of its
 * time zone.
 */
export const calendarSchema = z.object({
  rota_calendars_id: z.number().int(),
  name: z.string(),
  time_zone: z.string(),
  /** `YYYY-MM-DD`, ascending, each once. */
  excluded_dates: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Calendar = z.infer<typeof calendarSchema>;

/** Sorted, each day once: the order and repeats a user imports in mean nothing. */
const excludedDatesSchema = z
  .array(isoDateSchema, { error: msg('invalid_value') })
  .max(CALENDAR_MAX_DATES, msg('too_long'))
  .transform((days) => [...new Set(days)].sort());

const calendarFields = {
  name: requiredTextSchema(120, 'required_name'),
  time_zone: timeZoneSchema,
  excluded_dates: excludedDatesSchema,
};

/** `time_zone` left out means the server's (`TZ`). */
export const calendarCreateSchema = z.object({
  name: calendarFields.name,
  time_zone: calendarFields.time_zone.optional(),
  excluded_dates: calendarFields.excluded_dates.default([]),
});
export type CalendarCreate = z.infer<typeof calendarCreateSchema>;

export const calendarUpdateSchema = z.object({
  id: idSchema,
  name: calendarFields.name.optional(),
  time_zone: calendarFields.time_zone.optional(),
  excluded_dates: calendarFields.excluded_dates.optional(),
});
export type CalendarUpdate = z.infer<typeof calendarUpdateSchema>;

export const calendarListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['name', 'created_at']).default('name'),
});
export type CalendarListQuery = z.infer<typeof calendarListQuerySchema>;
