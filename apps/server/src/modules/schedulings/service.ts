import type {
  ListResponse,
  MessageKey,
  Scheduling,
  SchedulingCreate,
  SchedulingListQuery,
  SchedulingPreview,
  SchedulingPreviewResult,
  SchedulingUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { iso, isoOrNull } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import type { RobotService } from '../robots/service.js';
import type { VmService } from '../vms/service.js';
import {
  calendarDays,
  firstRun,
  nextRuns,
  parseCron,
  serverTimeZone,
  type CalendarDays,
  type Trigger,
} from './next-runs.js';
import {
  calendarOf,
  findScheduling,
  insertScheduling,
  listSchedulings,
  lockSchedulingsOfCalendar,
  lockSchedulingTiming,
  releaseCalendar,
  replaceSchedulingVms,
  setNextRuns,
  setSchedulingDeleted,
  updateScheduling,
  type SchedulingRow,
  type SchedulingTiming,
} from './repository.js';

export const toScheduling = (row: SchedulingRow): Scheduling => ({
  rota_schedulings_id: row.rota_schedulings_id,
  name: row.name,
  rota_robots_id: row.rota_robots_id,
  rota_robots_name: row.rota_robots_name,
  trigger_type: row.trigger_type as Scheduling['trigger_type'],
  interval_minutes: row.interval_minutes,
  cron: row.cron,
  time_zone: row.time_zone,
  missed_runs: row.missed_runs as Scheduling['missed_runs'],
  rota_calendars_id: row.rota_calendars_id,
  min_pending: row.min_pending,
  max_concurrent: row.max_concurrent,
  next_run_at:
    row.active && !row.deleted_at && row.trigger_type !== 'queue'
      ? isoOrNull(row.next_run_at)
      : null,
  timeout_minutes: row.timeout_minutes,
  retries: row.retries,
  priority: row.priority,
  sleep: row.sleep,
  active: row.active,
  vms: row.vms,
  labels: row.labels,
  deleted_at: isoOrNull(row.deleted_at),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** How many runs the preview answers. */
const PREVIEW_RUNS = 5;

/** The fields that decide when a scheduling runs: changing any recomputes `next_run_at`. */
const TIMING_FIELDS = [
  'trigger_type',
  'cron',
  'time_zone',
  'interval_minutes',
  'rota_calendars_id',
  'active',
] as const;

type Timing = Pick<
  SchedulingTiming,
  'trigger_type' | 'interval_minutes' | 'cron' | 'time_zone' | 'rota_calendars_id' | 'active'
>;

/**
 * The trigger as the search reads it, checked: a cron needs its expression, which must parse in
 * its zone (the server's when none).
 */
export function triggerOf(timing: Omit<Timing, 'active' | 'rota_calendars_id'>): Trigger {
  // A cron kept for a later switch must read too, whatever the trigger now.
  if (timing.cron) parseCron(timing.cron, timing.time_zone ?? serverTimeZone());
  if (timing.trigger_type === 'queue') return { trigger_type: 'queue' };
  if (timing.trigger_type === 'cron') {
    if (!timing.cron) throw invalidField('cron', 'required_cron');
    return {
      trigger_type: 'cron',
      cron: timing.cron,
      time_zone: timing.time_zone ?? serverTimeZone(),
    };
  }
  return { trigger_type: 'interval', interval_minutes: timing.interval_minutes };
}

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_scheduling_name' }]);

/**
 * A robot or VM checked a moment ago but deleted before the write fails its foreign key:
 * answer as if it had never been there.
 */
async function missingAs<T>(field: string, message: MessageKey, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw invalidField(field, message);
    throw error;
  }
}

export class SchedulingService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly robots: RobotService,
    private readonly vms: VmService,
    private readonly clock: Clock,
  ) {}

  async list(scope: TenantScope, query: SchedulingListQuery): Promise<ListResponse<Scheduling>> {
    const page = await listSchedulings(this.db, scope, query);
    return { data: page.data.map(toScheduling), meta: page.meta };
  }

  /** Deleted ones too, with their `deleted_at`. */
  show(scope: TenantScope, id: number): Promise<Scheduling> {
    return this.showIn(this.db, scope, id);
  }

  async create(
    scope: TenantScope,
    { vms, ...fields }: SchedulingCreate,
    author: AuditAuthor,
  ): Promise<Scheduling> {
    const vmIds = [...new Set(vms)];
    // Kept for a later switch back to `interval`; an hour when never given.
    const interval_minutes = fields.interval_minutes ?? 60;
    // A cron without a zone is read in the server's, and says so.
    const time_zone =
      fields.time_zone ?? (fields.trigger_type === 'cron' ? serverTimeZone() : null);
    const calendarId = fields.rota_calendars_id ?? null;
    const trigger = triggerOf({
      ...fields,
      interval_minutes,
      time_zone,
      cron: fields.cron ?? null,
    });
    return this.write(() =>
      this.audit.recorded(
        author,
        auditOf.created('scheduling', (created) => created.rota_schedulings_id),
        async (tx) => {
          await this.assertReferences(tx, scope, fields.rota_robots_id, vmIds);
          const calendar = await this.calendarIn(tx, scope, calendarId);
          const created = await missingAs(
            'rota_robots_id',
            'robot_not_found',
            insertScheduling(tx, scope, {
              ...fields,
              interval_minutes,
              time_zone,
              cron: fields.cron ?? null,
              rota_calendars_id: calendarId,
              // An interval's first run is now (unless the calendar excludes today), a cron's
              // its next occurrence.
              next_run_at: fields.active ? firstRun(trigger, this.clock.now(), calendar) : null,
            }),
          );
          await missingAs('vms', 'vm_not_found', replaceSchedulingVms(tx, scope, created, vmIds));
          return this.showIn(tx, scope, created);
        },
      ),
    );
  }

  /**
   * `vms`, when sent, replaces the whole set in the same transaction. The trigger's fields are
   * checked on the row as it will be (a switch to `cron` needs a cron, sent or kept), and a
   * change of any of them moves `next_run_at`.
   */
  async update(
    scope: TenantScope,
    { id, vms, ...changes }: SchedulingUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    const vmIds = vms === undefined ? undefined : [...new Set(vms)];
    await this.write(() =>
      this.audit.recorded(
        author,
        auditOf.changed('scheduling', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          await this.assertReferences(tx, scope, changes.rota_robots_id, vmIds ?? []);
          const current = await lockSchedulingTiming(tx, scope, id);
          if (!current) throw notFound();
          const timed = TIMING_FIELDS.some((field) => changes[field] !== undefined);
          let next_run_at: Date | null | undefined;
          if (timed) {
            const merged = { ...current };
            for (const field of TIMING_FIELDS) {
              if (changes[field] !== undefined) Object.assign(merged, { [field]: changes[field] });
            }
            if (merged.trigger_type === 'cron' && !merged.time_zone) {
              changes.time_zone = merged.time_zone = serverTimeZone();
            }
            const calendar = await this.calendarIn(tx, scope, merged.rota_calendars_id);
            next_run_at = this.nextRunOf(merged, calendar, current);
          }
          const found = await missingAs(
            'rota_robots_id',
            'robot_not_found',
            updateScheduling(tx, scope, id, {
              ...changes,
              ...(next_run_at === undefined ? {} : { next_run_at }),
            }),
          );
          if (!found) throw notFound();
          if (vmIds) {
            await missingAs('vms', 'vm_not_found', replaceSchedulingVms(tx, scope, id, vmIds));
          }
        },
      ),
    );
  }

  /** The next five runs of a scheduling as the user types it, from now. */
  async preview(scope: TenantScope, input: SchedulingPreview): Promise<SchedulingPreviewResult> {
    if (input.trigger_type === 'interval' && input.interval_minutes === undefined)
      throw invalidField('interval_minutes', 'required_interval');
    const trigger = triggerOf({
      trigger_type: input.trigger_type,
      cron: input.cron ?? null,
      time_zone: input.time_zone ?? null,
      interval_minutes: input.interval_minutes ?? 60,
    });
    const calendar = await this.calendarIn(this.db, scope, input.rota_calendars_id ?? null);
    return {
      next: nextRuns(trigger, this.clock.now(), PREVIEW_RUNS, calendar).map((d) => d.toISOString()),
    };
  }

  /**
   * A calendar's days or zone changed (CalendarService, in its transaction): the live
   * schedulings that name it move their next run.
   */
  async calendarChanged(tx: Db, scope: TenantScope, calendarId: number): Promise<void> {
    const rows = await lockSchedulingsOfCalendar(tx, scope, calendarId);
    if (rows.length === 0) return;
    const calendar = await this.calendarIn(tx, scope, calendarId);
    await setNextRuns(
      tx,
      scope,
      rows.map((row) => ({
        id: row.rota_schedulings_id,
        next_run_at: this.nextRunOf(row, calendar, row),
      })),
    );
  }

  /**
   * Before a calendar is deleted (CalendarService, in its transaction): deleted schedulings let
   * go of it; answers how many live ones still name it (then it stays).
   */
  releaseCalendar(tx: Db, scope: TenantScope, calendarId: number): Promise<number> {
    return releaseCalendar(tx, scope, calendarId);
  }

  /** Soft: the row stays (executions point at it) with its `deleted_at`, until restored. */
  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.deleted('scheduling', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await setSchedulingDeleted(tx, scope, id, true))) throw notFound();
      },
    );
  }

  /** Restoring a live one changes nothing and says so the same way. */
  async restore(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.write(() =>
      this.audit.recorded(
        author,
        auditOf.changed('scheduling', id, (tx) => this.showIn(tx, scope, id), 'restore'),
        async (tx) => {
          // `before` found it, so a scheduling not restored here was live already.
          if (!(await setSchedulingDeleted(tx, scope, id, false))) return;
          const row = await lockSchedulingTiming(tx, scope, id);
          if (!row) return;
          const calendar = await this.calendarIn(tx, scope, row.rota_calendars_id);
          await setNextRuns(tx, scope, [{ id, next_run_at: this.nextRunOf(row, calendar, row) }]);
        },
      ),
    );
  }

  /**
   * When a scheduling whose timing is `timing` runs next, from now. An interval keeps the run
   * it had pending (`current.next_run_at`), brought forward to one interval from now when the
   * interval shrank, and starts now when it had none (created, switched on, restored, switched
   * from another trigger); a cron runs at its next occurrence. Inactive and `queue`: null.
   */
  private nextRunOf(
    timing: Timing,
    calendar: CalendarDays | null,
    current: Pick<SchedulingTiming, 'trigger_type' | 'next_run_at' | 'active'>,
  ): Date | null {
    const trigger = triggerOf(timing);
    const now = this.clock.now();
    if (!timing.active || trigger.trigger_type !== 'interval') {
      return timing.active ? firstRun(trigger, now, calendar) : null;
    }
    const pending =
      current.active && current.trigger_type === 'interval' ? current.next_run_at : null;
    const limit = now.getTime() + trigger.interval_minutes * 60_000;
    const from = pending ? new Date(Math.min(pending.getTime(), limit)) : now;
    return firstRun(trigger, from, calendar);
  }

  /** The scheduling's calendar, which must be the client's (null: none). */
  private async calendarIn(
    db: Db,
    scope: TenantScope,
    id: number | null | undefined,
  ): Promise<CalendarDays | null> {
    if (id === null || id === undefined) return null;
    const row = await calendarOf(db, scope, id);
    if (!row) throw invalidField('rota_calendars_id', 'calendar_not_found');
    return calendarDays(row);
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Scheduling> {
    const row = await findScheduling(db, scope, id);
    if (!row) throw notFound();
    return toScheduling(row);
  }

  /** References must be rows of the scope; another client's id is refused as an unknown one. */
  private async assertReferences(
    tx: Db,
    scope: TenantScope,
    robotId: number | undefined,
    vmIds: readonly number[],
  ) {
    if (robotId !== undefined && !(await this.robots.existsIn(tx, scope, robotId)))
      throw invalidField('rota_robots_id', 'robot_not_found');
    const found = await this.vms.idsInScope(tx, scope, vmIds);
    if (vmIds.some((id) => !found.has(id))) throw invalidField('vms', 'vm_not_found');
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
