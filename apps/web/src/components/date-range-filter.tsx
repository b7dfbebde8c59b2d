import { Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isoDateSchema, type MessageKey } from '@rota/contract';
import { todayIsoDate } from '../lib/format';
import { localizeMessage } from '../lib/i18n';
import type { ListState } from '../lib/use-list-state';

type Range = { startDate?: string; endDate?: string };

const isIsoDate = (value: string) => isoDateSchema.safeParse(value).success;

/**
 * DESIGN §4 rules for a `startDate`/`endDate` pair: real days, the end not after today ("Max
 * data") nor before the start. Returns the message key of each field in error.
 */
export function dateRangeErrors(
  { startDate, endDate }: Range,
  today: string = todayIsoDate(),
): { startDate?: MessageKey; endDate?: MessageKey } {
  const errors: { startDate?: MessageKey; endDate?: MessageKey } = {};
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

type DateRangeFilterProps = {
  /** The list whose `startDate` and `endDate` filters these inputs edit. */
  list: ListState<string, string>;
  startName?: string;
  endName?: string;
};

/** Two day inputs ("Data inicial", "Data final") kept in the list's URL state. */
export function DateRangeFilter({
  list,
  startName = 'startDate',
  endName = 'endDate',
}: DateRangeFilterProps) {
  const { t } = useTranslation();
  const startDate = list.filters[startName];
  const endDate = list.filters[endName];
  const today = todayIsoDate();
  const errors = dateRangeErrors({ startDate, endDate }, today);
  return (
    <Group gap="sm" align="flex-start" wrap="wrap" w={{ base: '100%', xs: 'auto' }}>
      <TextInput
        type="date"
        label={t('common.dateRange.start')}
        value={startDate ?? ''}
        max={endDate && endDate <= today ? endDate : today}
        onChange={(event) => list.setFilter(startName, event.currentTarget.value)}
        error={errors.startDate ? localizeMessage(errors.startDate) : undefined}
        w={{ base: '100%', xs: 170 }}
      />
      <TextInput
        type="date"
        label={t('common.dateRange.end')}
        value={endDate ?? ''}
        min={startDate}
        max={today}
        onChange={(event) => list.setFilter(endName, event.currentTarget.value)}
        error={errors.endDate ? localizeMessage(errors.endDate) : undefined}
        w={{ base: '100%', xs: 170 }}
      />
    </Group>
  );
}
