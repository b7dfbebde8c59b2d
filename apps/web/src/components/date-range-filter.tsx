import { useState } from 'react';
import { Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DEFAULT_DATE_RANGE_DAYS, isIsoDate, type MessageKey } from '@rota/contract';
import { isoDateOf, todayIsoDate } from '../lib/format';
import { DayInput } from './date-inputs';
import { localizeMessage } from '../lib/i18n';
import type { ListState } from '../lib/use-list-state';

type Range = { startDate?: string; endDate?: string };

type RangeErrors = { startDate?: MessageKey; endDate?: MessageKey };

/**
 * Default range: the last `days` calendar days up to today, both ends included
 * (10 days: today and the 9 before it).
 */
export function defaultDateRange(
  days: number = DEFAULT_DATE_RANGE_DAYS,
  now: Date = new Date(),
): Required<Range> {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1));
  return { startDate: isoDateOf(start), endDate: todayIsoDate(now) };
}

/**
 * Rules for a `startDate`/`endDate` pair: real days, the end not after today ("Max
 * data") nor before the start; with `required`, both must be there ("Required data"). Returns
 * the message key of each field in error.
 */
export function dateRangeErrors(
  { startDate, endDate }: Range,
  today: string = todayIsoDate(),
  { required = false }: { required?: boolean } = {},
): RangeErrors {
  const errors: RangeErrors = {};
  if (required && !startDate) errors.startDate = 'required_date';
  if (required && !endDate) errors.endDate = 'required_date';
  if (startDate && !isIsoDate(startDate)) errors.startDate = 'invalid_date';
  if (endDate && !isIsoDate(endDate)) errors.endDate = 'invalid_date';
  else if (endDate && endDate > today) errors.endDate = 'max_date';
  else if (startDate && endDate && !errors.startDate && endDate < startDate) {
    errors.endDate = 'date_range_order';
  }
  return errors;
}

/** The range for an `index` body: only the valid parts, so a half-typed date never reaches the API. */
export function dateRangeQuery(range: Range, today: string = todayIsoDate()): Range {
  const errors = dateRangeErrors(range, today);
  if (errors.endDate === 'date_range_order') return {};
  return {
    ...(range.startDate && !errors.startDate ? { startDate: range.startDate } : {}),
    ...(range.endDate && !errors.endDate ? { endDate: range.endDate } : {}),
  };
}

/**
 * A range both of whose ends are required (activity, dashboard): what to query is the range
 * typed when it is valid, else the last valid one, so a half-edited filter neither empties the
 * page nor sends a range the server refuses.
 */
export function useValidDateRange(range: Range, fallback: Required<Range>) {
  const errors = dateRangeErrors(range, todayIsoDate(), { required: true });
  const valid = !errors.startDate && !errors.endDate;
  const current = valid ? { startDate: range.startDate!, endDate: range.endDate! } : null;
  const [lastValid, setLastValid] = useState<Required<Range>>(current ?? fallback);
  if (
    current &&
    (current.startDate !== lastValid.startDate || current.endDate !== lastValid.endDate)
  ) {
    setLastValid(current);
  }
  return { errors, valid, range: current ?? lastValid };
}

type DateRangeFilterProps = {
  /** The list whose `startDate` and `endDate` filters these inputs edit. */
  list: ListState<string, string>;
  startName?: string;
  endName?: string;
  /** Both days must be given ("Data obrigatória"), as the activity and the dashboard want. */
  required?: boolean;
  /**
   * `'page'`: the inputs only turn red and the page says why (Activity, in place of its rows),
   * so an error never makes the filter row taller.
   */
  messages?: 'fields' | 'page';
};

/** Two day inputs ("Data inicial", "Data final") kept in the list's URL state. */
export function DateRangeFilter({
  list,
  startName = 'startDate',
  endName = 'endDate',
  required = false,
  messages = 'fields',
}: DateRangeFilterProps) {
  const { t } = useTranslation();
  const startDate = list.filters[startName];
  const endDate = list.filters[endName];
  const today = todayIsoDate();
  const errors = dateRangeErrors({ startDate, endDate }, today, { required });
  const errorOf = (key: MessageKey | undefined) =>
    key ? (messages === 'page' ? true : localizeMessage(key)) : undefined;
  return (
    <Group gap="sm" align="flex-start" wrap="wrap" w={{ base: '100%', xs: 'auto' }}>
      <DayInput
        label={t('common.dateRange.start')}
        withAsterisk={required}
        clearable={!required}
        allowDeselect
        value={startDate ?? ''}
        maxDate={today}
        onChange={(value) => list.setFilter(startName, value)}
        error={errorOf(errors.startDate)}
        w={{ base: '100%', xs: 170 }}
      />
      <DayInput
        label={t('common.dateRange.end')}
        withAsterisk={required}
        clearable={!required}
        allowDeselect
        value={endDate ?? ''}
        // No minDate: an end typed before the start is told ("date_range_order"), not ignored.
        maxDate={today}
        onChange={(value) => list.setFilter(endName, value)}
        error={errorOf(errors.endDate)}
        w={{ base: '100%', xs: 170 }}
      />
    </Group>
  );
}
