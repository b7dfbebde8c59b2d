import { describe, expect, it } from 'vitest';
import {
  dateRangeErrors,
  dateRangeQuery,
  defaultDateRange,
} from '../src/components/date-range-filter';
import {
  formatBytes,
  formatDate,
  formatDateTime,
  formatDisjunction,
  formatDuration,
  formatNumber,
} from '../src/lib/format';

describe('formats in the user’s language', () => {
  const instant = new Date(2026, 10, 21, 17, 5).toISOString();

  it('dates and times: pt dd/MM/yyyy HH:mm, en MM/dd/yyyy h:mm AM', () => {
    expect(formatDateTime(instant, 'pt')).toBe('21/11/2026 17:05');
    expect(formatDateTime(instant, 'en')).toBe('11/21/2026 5:05 PM');
    expect(formatDateTime(null, 'pt')).toBe('');
    expect(formatDateTime('not a date', 'pt')).toBe('');
  });

  it('dates and times written as Intl.DateTimeFormat writes them, in pt and en', () => {
    // format.ts writes them by hand (building the first Intl formatter is slow on a phone).
    const day = { day: '2-digit', month: '2-digit', year: 'numeric' } as const;
    const intl = {
      pt: [
        new Intl.DateTimeFormat('pt-BR', day),
        new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
      ],
      en: [
        new Intl.DateTimeFormat('en-US', day),
        new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }),
      ],
    } as const;
    const instants = [
      new Date(2026, 0, 1, 0, 0),
      new Date(2026, 0, 1, 0, 30),
      new Date(2026, 5, 9, 9, 5),
      new Date(2026, 11, 31, 12, 0),
      new Date(2026, 11, 31, 12, 59),
      new Date(2026, 11, 31, 23, 59),
      new Date(1999, 1, 28, 13, 7),
      new Date(2100, 6, 4, 11, 11),
    ];
    // And one every 7 h 13 min over three years: every hour of the day, both halves of it.
    for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2028, 0, 1); t += 26_000_000)
      instants.push(new Date(t));
    for (const lang of ['pt', 'en'] as const) {
      const [dateFormat, timeFormat] = intl[lang];
      for (const instant of instants) {
        const expected = `${dateFormat.format(instant)} ${timeFormat.format(instant)}`;
        expect(formatDateTime(instant, lang), instant.toISOString()).toBe(expected);
        expect(formatDate(instant.toISOString(), lang)).toBe(dateFormat.format(instant));
      }
    }
  });

  it('calendar days as written, whatever the time zone', () => {
    expect(formatDate('2026-01-31', 'pt')).toBe('31/01/2026');
    expect(formatDate('2026-01-31', 'en')).toBe('01/31/2026');
  });

  it('numbers grouped as Intl.NumberFormat groups them, in pt and en', () => {
    const values = [
      0,
      7,
      999,
      1000,
      12_345,
      -1234,
      1_234_567,
      Number.MAX_SAFE_INTEGER,
      -0,
      1.5,
      1e21,
    ];
    for (const lang of ['pt', 'en'] as const) {
      const intl = new Intl.NumberFormat(lang === 'pt' ? 'pt-BR' : 'en-US');
      for (const value of values) expect(formatNumber(value, lang)).toBe(intl.format(value));
    }
    expect(formatNumber(1_234_567, 'pt')).toBe('1.234.567');
    expect(formatNumber(-1234, 'en')).toBe('-1,234');
  });

  it('byte sizes in units of 1024', () => {
    expect(formatBytes(512, 'pt')).toBe('512 B');
    expect(formatBytes(1536, 'pt')).toBe('1,5 KB');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
    expect(formatBytes(100 * 1024 * 1024, 'en')).toBe('100 MB');
    expect(formatBytes(3.25 * 1024 ** 3, 'pt')).toBe('3,3 GB');
  });

  it('durations humanised in their two largest units', () => {
    expect(formatDuration(null, 'pt')).toBe('');
    expect(formatDuration(850, 'pt')).toBe('< 1 s');
    expect(formatDuration(45_000, 'pt')).toBe('45 s');
    expect(formatDuration(65_000, 'pt')).toBe('1 min 5 s');
    expect(formatDuration(60 * 60_000, 'en')).toBe('1 h');
    expect(formatDuration(7_500_000, 'en')).toBe('2 h 5 min');
    expect(formatDuration(7_205_000, 'en')).toBe('2 h');
    expect(formatDuration(26 * 3_600_000 + 5 * 60_000, 'pt')).toBe('1 d 2 h');
  });

  it('alternatives as Intl.ListFormat writes them, without building one', () => {
    for (const items of [[], ['a'], ['a', 'b'], ['a', 'b', 'c'], ['a', 'b', 'c', 'd']]) {
      for (const [lang, locale] of [
        ['pt', 'pt-BR'],
        ['en', 'en-US'],
      ] as const) {
        const expected = new Intl.ListFormat(locale, { type: 'disjunction' }).format(items);
        expect(formatDisjunction(items, lang)).toBe(expected);
      }
    }
    expect(formatDisjunction(['em execução', 'falha', 'parado'], 'pt')).toBe(
      'em execução, falha ou parado',
    );
    expect(formatDisjunction(['running', 'failed', 'stopped'], 'en')).toBe(
      'running, failed, or stopped',
    );
  });
});

describe('date range', () => {
  const today = '2026-11-21';

  it('accepts a range up to today', () => {
    expect(dateRangeErrors({ startDate: '2026-11-01', endDate: today }, today)).toEqual({});
    expect(dateRangeQuery({ startDate: '2026-11-01', endDate: today }, today)).toEqual({
      startDate: '2026-11-01',
      endDate: today,
    });
  });

  it('refuses an end after today ("Max data") or before the start', () => {
    expect(dateRangeErrors({ endDate: '2026-11-22' }, today)).toEqual({ endDate: 'max_date' });
    expect(dateRangeErrors({ startDate: '2026-11-10', endDate: '2026-11-01' }, today)).toEqual({
      endDate: 'date_range_order',
    });
    expect(dateRangeQuery({ startDate: '2026-11-10', endDate: '2026-11-01' }, today)).toEqual({});
    expect(dateRangeQuery({ startDate: '2026-11-10', endDate: '2026-12-01' }, today)).toEqual({
      startDate: '2026-11-10',
    });
  });

  it('asks for both days when they are required ("Required data")', () => {
    expect(dateRangeErrors({}, today, { required: true })).toEqual({
      startDate: 'required_date',
      endDate: 'required_date',
    });
    expect(
      dateRangeErrors({ startDate: '2026-13-01', endDate: today }, today, { required: true }),
    ).toEqual({
      startDate: 'invalid_date',
    });
    expect(dateRangeErrors({ endDate: today }, today)).toEqual({});
  });

  it('defaults to the last 10 days, today included', () => {
    expect(defaultDateRange(10, new Date(2026, 10, 21, 15, 0))).toEqual({
      startDate: '2026-11-12',
      endDate: '2026-11-21',
    });
    // Across a month end.
    expect(defaultDateRange(10, new Date(2026, 2, 3))).toEqual({
      startDate: '2026-02-22',
      endDate: '2026-03-03',
    });
  });
});
