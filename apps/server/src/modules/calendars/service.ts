import type {
  Calendar,
  CalendarCreate,
  CalendarListQuery,
  CalendarUpdate,
  ListResponse,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import { serverTimeZone } from '../schedulings/next-runs.js';
import type { SchedulingService } from '../schedulings/service.js';
import {
  deleteCalendar,
  findCalendar,
  insertCalendar,
  listCalendars,
  updateCalendar,
  type CalendarRow,
} from './repository.js';

export const toCalendar = (row: CalendarRow): Calendar => ({
  rota_calendars_id: row.rota_calendars_id,
  name: row.name,
  time_zone: row.time_zone,
  excluded_dates: row.excluded_dates,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_calendar_name' }]);

const calendarInUse = () => new AppError('conflict', [{ field: 'id', message: 'calendar_in_use' }]);

/**
 * Business calendars: days on which the schedulings that name one queue no run.
 * Changing a calendar's days or zone moves those schedulings' next run, through
 * SchedulingService, in the change's transaction.
 */
export class CalendarService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly schedulings: SchedulingService,
  ) {}

  list(scope: TenantScope, query: CalendarListQuery): Promise<ListResponse<Calendar>> {
    return listCalendars(this.db, scope, query, toCalendar);
  }

  show(scope: TenantScope, id: number): Promise<Calendar> {
    return this.showIn(this.db, scope, id);
  }

  /** `time_zone` left out: the server's. */
  async create(scope: TenantScope, input: CalendarCreate, author: AuditAuthor): Promise<Calendar> {
    return this.write(() =>
      this.audit.recorded(
        author,
        auditOf.created('calendar', (calendar) => calendar.rota_calendars_id),
        async (tx) =>
          this.showIn(
            tx,
            scope,
            await insertCalendar(tx, scope, {
              name: input.name,
              time_zone: input.time_zone ?? serverTimeZone(),
              excluded_dates: input.excluded_dates,
            }),
          ),
      ),
    );
  }

  async update(
    scope: TenantScope,
    { id, ...changes }: CalendarUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    await this.write(() =>
      this.audit.recorded(
        author,
        auditOf.changed('calendar', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          if (!(await updateCalendar(tx, scope, id, changes))) throw notFound();
          if (changes.time_zone !== undefined || changes.excluded_dates !== undefined) {
            await this.schedulings.calendarChanged(tx, scope, id);
          }
        },
      ),
    );
  }

  /**
   * Refused (409) while a live scheduling names it; deleted schedulings let go of it (restored,
   * they run without a calendar).
   */
  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    try {
      await this.audit.recorded(
        author,
        auditOf.deleted('calendar', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          if ((await this.schedulings.releaseCalendar(tx, scope, id)) > 0) throw calendarInUse();
          if (!(await deleteCalendar(tx, scope, id))) throw notFound();
        },
      );
    } catch (error) {
      // A scheduling that took the calendar meanwhile.
      if (isForeignKeyViolation(error)) throw calendarInUse();
      throw error;
    }
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Calendar> {
    const row = await findCalendar(db, scope, id);
    if (!row) throw notFound();
    return toCalendar(row);
  }

  private async write<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }
}
