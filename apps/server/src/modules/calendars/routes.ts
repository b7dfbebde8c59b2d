import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  calendarCreateSchema,
  calendarListQuerySchema,
  calendarSchema,
  calendarUpdateSchema,
} from '@rota/contract';
import { registerCrudRoutes } from '../../http/crud-routes.js';
import type { CalendarService } from './service.js';

/** /api/rota/calendar/api/v1: business calendars, guarded by AGENDAMENTOS.* */
export const calendarRoutes: FastifyPluginAsyncZod<{ calendars: CalendarService }> = async (
  app,
  { calendars },
) => {
  registerCrudRoutes(app, {
    area: 'AGENDAMENTOS',
    tag: 'calendars',
    noun: 'calendar',
    item: calendarSchema,
    listQuery: calendarListQuerySchema,
    create: {
      body: calendarCreateSchema,
      summary: 'Create a business calendar: days on which its schedulings queue no run',
      run: (scope, input, author) => calendars.create(scope, input, author),
    },
    update: calendarUpdateSchema,
    service: calendars,
    summaries: {
      update:
        'Change a calendar; new days or a new zone move the next run of the schedulings on it',
      delete: 'Delete a calendar no live scheduling names (409 `calendar_in_use` otherwise)',
    },
  });
};
