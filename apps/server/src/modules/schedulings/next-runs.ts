import { Cron } from 'croner';
import { isTimeZone } from '@rota/contract';
import { invalidField } from '../../lib/errors.js';

/**
 * When a scheduling runs: pure functions over croner (cron) and plain arithmetic (interval),
 * skipping the days a business calendar excludes. Nothing here reads the clock or the database.
 */

/** The server's zone (`TZ`), what a cron without `time_zone` is read in. */
export const serverTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A calendar as the search needs it: its zone and its excluded days (`YYYY-MM-DD`). */
export interface CalendarDays {
  time_zone: string;
  excluded: ReadonlySet<string>;
}

export const calendarDays = (calendar: {
  time_zone: string;
  excluded_dates: readonly string[];
}): CalendarDays => ({ time_zone: calendar.time_zone, excluded: new Set(calendar.excluded_dates) });

/** What the search reads of a scheduling. */
export type Trigger =
  | { trigger_type: 'interval'; interval_minutes: number }
  | { trigger_type: 'cron'; cron: string; time_zone: string }
  | { trigger_type: 'queue' };

/**
 * How many excluded stretches one occurrence may jump over before the search gives up: a
 * calendar that excludes (nearly) every day the trigger fires answers fewer occurrences, or
 * none, instead of looping.
 */
const MAX_JUMPS = 1000;

/**
 * A 5-field cron read in `timeZone`. Day of month and day of week combine with OR, as in Vixie
 * cron (croner's default, `domAndDow: false`). Anything croner refuses is `invalid_cron`.
 */
export function parseCron(expression: string, timeZone: string): Cron {
  if (!isTimeZone(timeZone)) throw invalidField('time_zone', 'invalid_time_zone');
  try {
    return new Cron(expression.trim(), {
      timezone: timeZone,
      paused: true,
      mode: '5-part',
      domAndDow: false,
    });
  } catch {
    throw invalidField('cron', 'invalid_cron');
  }
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
const wallFormats = new Map<string, Intl.DateTimeFormat>();

function cached(
  map: Map<string, Intl.DateTimeFormat>,
  zone: string,
  make: () => Intl.DateTimeFormat,
) {
  let format = map.get(zone);
  if (!format) {
    format = make();
    map.set(zone, format);
  }
  return format;
}

/** `YYYY-MM-DD` of `instant` in `zone`. */
export function dayIn(instant: Date, zone: string): string {
  return cached(
    dayFormats,
    zone,
    () =>
      new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }),
  ).format(instant);
}

/** How far `zone`'s wall clock is ahead of UTC at `ms`, in milliseconds. */
function offsetAt(ms: number, zone: string): number {
  const parts = cached(
    wallFormats,
    zone,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      }),
  ).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

const addDays = (day: string, days: number): string => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
};

/** The first instant of `day` in `zone` (after the gap, where midnight does not exist). */
export function startOfDay(day: string, zone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const wallMidnight = Date.UTC(y!, m! - 1, d!);
  let at = wallMidnight;
  for (let i = 0; i < 3; i++) {
    const next = wallMidnight - offsetAt(at, zone);
    if (next === at) break;
    at = next;
  }
  // A midnight skipped by daylight saving lands on the day before: step to the day's first hour.
  for (let i = 0; i < 4 && dayIn(new Date(at), zone) < day; i++) at += 3_600_000;
  return new Date(at);
}

/** The first instant after the excluded stretch `instant` falls on (days of the calendar). */
function afterExcluded(instant: Date, calendar: CalendarDays): Date {
  let day = dayIn(instant, calendar.time_zone);
  // At most as many steps as there are excluded dates.
  for (let i = 0; i <= calendar.excluded.size && calendar.excluded.has(day); i++) {
    day = addDays(day, 1);
  }
  return startOfDay(day, calendar.time_zone);
}

export const isExcluded = (instant: Date, calendar: CalendarDays | null | undefined): boolean =>
  Boolean(calendar && calendar.excluded.has(dayIn(instant, calendar.time_zone)));

/**
 * The first tick `first + k·interval` (k ≥ 0) not on an excluded day, or null when the search
 * gives up.
 */
function intervalTickFrom(
  first: Date,
  intervalMs: number,
  calendar: CalendarDays | null | undefined,
): Date | null {
  let at = first.getTime();
  for (let jump = 0; jump < MAX_JUMPS; jump++) {
    if (!isExcluded(new Date(at), calendar)) return new Date(at);
    const resume = afterExcluded(new Date(at), calendar!).getTime();
    at += Math.max(1, Math.ceil((resume - at) / intervalMs)) * intervalMs;
  }
  return null;
}

/** The first occurrence of `cron` strictly after `after` not on an excluded day. */
function cronAfter(
  cron: Cron,
  after: Date,
  calendar: CalendarDays | null | undefined,
): Date | null {
  let next = cron.nextRun(after);
  for (let jump = 0; next && jump < MAX_JUMPS; jump++) {
    if (!isExcluded(next, calendar)) return next;
    // The day's first instant may itself be an occurrence: look from just before it.
    next = cron.nextRun(new Date(afterExcluded(next, calendar!).getTime() - 1));
  }
  return null;
}

/**
 * Parsed crons by zone and expression: the scheduler decides the same few expressions again
 * every tick (a paused croner job answers `nextRun(from)` from its pattern alone).
 */
const parsed = new Map<string, Cron>();
const PARSED_MAX = 2000;

function cronOf(trigger: Extract<Trigger, { trigger_type: 'cron' }>): Cron {
  const key = `${trigger.time_zone} ${trigger.cron}`;
  let cron = parsed.get(key);
  if (!cron) {
    cron = parseCron(trigger.cron, trigger.time_zone);
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(key, cron);
  }
  return cron;
}

/**
 * The next `count` times a scheduling created at `now` would run: an interval's first run is
 * at creation (`now`), then every interval; a cron's occurrences after `now`. Fewer when the
 * cron or the calendar has fewer; none for `queue`.
 */
export function nextRuns(
  trigger: Trigger,
  now: Date,
  count: number,
  calendar?: CalendarDays | null,
): Date[] {
  const runs: Date[] = [];
  if (trigger.trigger_type === 'queue') return runs;
  if (trigger.trigger_type === 'interval') {
    const intervalMs = trigger.interval_minutes * 60_000;
    let from: Date | null = now;
    while (runs.length < count && from) {
      const tick = intervalTickFrom(from, intervalMs, calendar);
      if (!tick) break;
      runs.push(tick);
      from = new Date(tick.getTime() + intervalMs);
    }
    return runs;
  }
  const cron = cronOf(trigger);
  // Croner answers the occurrences strictly after its argument; `now` itself counts.
  let after = new Date(now.getTime() - 1);
  while (runs.length < count) {
    const next = cronAfter(cron, after, calendar);
    if (!next) break;
    runs.push(next);
    after = next;
  }
  return runs;
}

/** A scheduling's first `next_run_at`: its first run from `now` (null: none, or `queue`). */
export function firstRun(trigger: Trigger, now: Date, calendar?: CalendarDays | null): Date | null {
  return nextRuns(trigger, now, 1, calendar)[0] ?? null;
}

/**
 * After the occurrence `due` was handled at `now`: the next one. An interval keeps its rhythm
 * (`due + interval`) unless that is past already (every server was down), then it restarts from
 * now; a cron's next occurrence after now.
 */
export function runAfter(
  trigger: Trigger,
  due: Date,
  now: Date,
  calendar?: CalendarDays | null,
): Date | null {
  if (trigger.trigger_type === 'queue') return null;
  if (trigger.trigger_type === 'interval') {
    const intervalMs = trigger.interval_minutes * 60_000;
    const kept = due.getTime() + intervalMs;
    const from = kept > now.getTime() ? kept : now.getTime() + intervalMs;
    return intervalTickFrom(new Date(from), intervalMs, calendar);
  }
  return cronAfter(cronOf(trigger), now, calendar);
}
