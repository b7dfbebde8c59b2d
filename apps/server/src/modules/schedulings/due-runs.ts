import {
  calendarDays,
  isExcluded,
  runAfter,
  serverTimeZone,
  type CalendarDays,
  type Trigger,
} from './next-runs.js';

/**
 * How late an occurrence may be and still run under `missed_runs: skip`: a tick is a second,
 * so this is a minute of ticks (a busy or restarting server), not downtime.
 */
export const SKIP_GRACE_MS = 60_000;

/** A due scheduling as the scheduler locked it (statements.ts `lockDueSchedulings`). */
export interface DueRow {
  id: number;
  trigger_type: string;
  interval_minutes: number;
  cron: string | null;
  time_zone: string | null;
  missed_runs: string;
  calendar_id: number | null;
  next_run_at: Date | string;
}

export interface DueCalendar {
  id: number;
  time_zone: string;
  excluded_dates: string[];
}

/** What the scheduler does with one due scheduling: its next run, and whether it runs now. */
export interface DueMove {
  id: number;
  next_run_at: Date | null;
  run: boolean;
  /**
   * The occurrence was more than the grace late and its calendar did not exclude it (an alert's
   * `scheduling.missed`): when it was due and the policy that decided `run`.
   */
  missed: { due_at: Date; missed_runs: string } | null;
}

function triggerOfRow(row: DueRow): Trigger {
  if (row.trigger_type === 'cron' && row.cron) {
    return { trigger_type: 'cron', cron: row.cron, time_zone: row.time_zone ?? serverTimeZone() };
  }
  return { trigger_type: 'interval', interval_minutes: row.interval_minutes };
}

/**
 * Decides, at `now`, each due occurrence: it queues a run unless its calendar excludes its day
 * or it is a missed run (older than the grace) of a `skip` scheduling; the next run moves past
 * now either way (so runs missed while every server was down become one, or none).
 */
export function planDueRuns(
  rows: readonly DueRow[],
  calendars: readonly DueCalendar[],
  now: Date,
): DueMove[] {
  const days = new Map<number, CalendarDays>(calendars.map((c) => [c.id, calendarDays(c)]));
  return rows.map((row) => {
    const due = new Date(row.next_run_at);
    const calendar = row.calendar_id === null ? null : (days.get(row.calendar_id) ?? null);
    const missed = now.getTime() - due.getTime() > SKIP_GRACE_MS;
    const excluded = isExcluded(due, calendar);
    const run = !excluded && !(row.missed_runs === 'skip' && missed);
    let next: Date | null;
    try {
      next = runAfter(triggerOfRow(row), due, now, calendar);
    } catch {
      // A stored cron croner no longer reads: it stops (null) instead of failing every tick.
      next = null;
    }
    return {
      id: row.id,
      next_run_at: next,
      run,
      missed: missed && !excluded ? { due_at: due, missed_runs: row.missed_runs } : null,
    };
  });
}
