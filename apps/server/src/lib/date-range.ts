import { gte, lt, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { AppError, type FieldIssue } from './errors.js';

export interface DateRange {
  startDate?: string | undefined;
  endDate?: string | undefined;
}

/** `YYYY-MM-DD` of an instant in the server's time zone (TZ, default UTC). */
export function localDay(instant: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`;
}

/** Midnight starting `day` (plus `offset` days) in the server's time zone. */
function midnight(day: string, offset = 0): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d! + offset);
}

/** The end may be neither before the start nor after today ("Max data"). */
export function assertDateRange(range: DateRange, now = new Date()): void {
  const issues: FieldIssue[] = [];
  if (range.startDate && range.endDate && range.endDate < range.startDate) {
    issues.push({ field: 'endDate', message: 'date_range_order' });
  }
  if (range.endDate && range.endDate > localDay(now)) {
    issues.push({ field: 'endDate', message: 'max_date' });
  }
  if (issues.length > 0) throw new AppError('invalid_input', issues);
}

/** The instants of the inclusive days, as conditions on `column` (undefined: no bound). */
export function withinDays(column: AnyPgColumn, range: DateRange): (SQL | undefined)[] {
  return [
    range.startDate ? gte(column, midnight(range.startDate)) : undefined,
    range.endDate ? lt(column, midnight(range.endDate, 1)) : undefined,
  ];
}
