import type { Language } from '@rota/contract';

/**
 * Calendar days as `YYYY-MM-DD` strings, the way the server stores excluded dates. Arithmetic
 * runs on UTC midnights, so no daylight-saving day is 23 or 25 hours long.
 */
export type Day = string;

const pad = (value: number, size = 2) => String(value).padStart(size, '0');

export function dayOf(year: number, month: number, date: number): Day {
  return `${pad(year, 4)}-${pad(month + 1)}-${pad(date)}`;
}

/** Year, month (0–11) and day of month of a real day; null for `2026-02-30` or not a day. */
export function partsOf(day: string): { year: number; month: number; date: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  if (year < 1) return null;
  const utc = new Date(Date.UTC(year, month, date));
  // 2026-02-30 would be March 2nd: only a day that reads back the same is real.
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month || utc.getUTCDate() !== date) {
    return null;
  }
  return { year, month, date };
}

export function addDays(day: Day, count: number): Day {
  const parts = partsOf(day);
  if (!parts) return day;
  const utc = new Date(Date.UTC(parts.year, parts.month, parts.date + count));
  return dayOf(utc.getUTCFullYear(), utc.getUTCMonth(), utc.getUTCDate());
}

/** 0 Sunday … 6 Saturday. */
export function weekdayOf(day: Day): number {
  const parts = partsOf(day);
  return parts ? new Date(Date.UTC(parts.year, parts.month, parts.date)).getUTCDay() : 0;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** Today in `timeZone` (the browser's when empty or unknown). */
export function todayIn(timeZone: string | null | undefined, now = new Date()): Day {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: timeZone || undefined,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  } catch {
    format = new Intl.DateTimeFormat('en-CA', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  }
  const parts = Object.fromEntries(format.formatToParts(now).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

export type ParsedDates = {
  /** Real days, `YYYY-MM-DD`, in the order given (repeats kept: the schema folds them). */
  dates: Day[];
  /** What could not be read as a day, as the user wrote it. */
  invalid: string[];
};

/**
 * A pasted list of days: one per line, or separated by commas or semicolons. Each is
 * `YYYY-MM-DD`, or the language's own writing of a day: `DD/MM/YYYY` in pt, `MM/DD/YYYY` in en
 * (one-digit days and months too). Anything else is reported, not dropped.
 */
export function parseDateList(text: string, lang: Language): ParsedDates {
  const dates: Day[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[\n\r,;]+/)) {
    const entry = raw.trim();
    if (!entry) continue;
    const day = readDay(entry, lang);
    if (day) dates.push(day);
    else invalid.push(entry);
  }
  return { dates, invalid };
}

function readDay(entry: string, lang: Language): Day | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(entry)) return partsOf(entry) ? entry : null;
  const local = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(entry);
  if (!local) return null;
  const [first, second, year] = [Number(local[1]), Number(local[2]), Number(local[3])];
  const [date, month] = lang === 'pt' ? [first, second] : [second, first];
  const day = dayOf(year, month - 1, date);
  return partsOf(day) ? day : null;
}
