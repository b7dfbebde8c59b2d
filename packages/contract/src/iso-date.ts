/*
 * Calendar days and date-times as the API writes them, checked without zod: the schemas refine
 * with these, and the console's date-range filter checks its inputs with them before its first
 * paint.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

// Date.UTC reads years 0–99 as 1900–1999, so those never match and are refused: PostgreSQL
// refuses year 0, and nobody means the others.
function isCalendarDay(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day)
  );
}

/** A calendar day written `YYYY-MM-DD`. */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  return Boolean(m && isCalendarDay(m[1]!, m[2]!, m[3]!));
}

/** An ISO 8601 date-time (`2030-01-31T12:00`, seconds, fraction and offset optional). */
export function isIsoDateTime(value: string): boolean {
  const m = ISO_DATE_TIME.exec(value);
  return Boolean(m && isCalendarDay(m[1]!, m[2]!, m[3]!) && !Number.isNaN(Date.parse(value)));
}
