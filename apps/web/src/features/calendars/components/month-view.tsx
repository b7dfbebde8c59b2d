import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { ActionIcon, Group, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { Language } from '@rota/contract';
import { LOCALES } from '../../../lib/format';
import { useCalendarsTranslation } from '../i18n';
import { addDays, dayOf, daysInMonth, partsOf, weekdayOf, type Day } from './calendar-days';
import classes from './month-view.module.css';

type MonthViewProps = {
  /** Excluded days, `YYYY-MM-DD`. */
  excluded: ReadonlySet<Day>;
  onToggle: (day: Day) => void;
  /** Today in the calendar's time zone: marked, and the month first shown. */
  today: Day;
  lang: Language;
};

/** The weeks (Sunday first) of a month, `null` for the cells before the 1st and after the last. */
function weeksOf(year: number, month: number): (Day | null)[][] {
  const first = dayOf(year, month, 1);
  const cells: (Day | null)[] = Array.from({ length: weekdayOf(first) }, () => null);
  for (let date = 1; date <= daysInMonth(year, month); date += 1) {
    cells.push(dayOf(year, month, date));
  }
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (Day | null)[][] = [];
  for (let index = 0; index < cells.length; index += 7) weeks.push(cells.slice(index, index + 7));
  return weeks;
}

const utcDate = (day: Day) => {
  const parts = partsOf(day)!;
  return new Date(Date.UTC(parts.year, parts.month, parts.date));
};

/**
 * One month of a business calendar; a click (or Enter/Space) on a day toggles it excluded.
 * Keyboard: one day is in the tab order; arrows move a day or a week (into the next or previous
 * month), Home/End the week's ends, PageUp/PageDown a month.
 */
export function MonthView({ excluded, onToggle, today, lang }: MonthViewProps) {
  const t = useCalendarsTranslation();
  const [focused, setFocused] = useState<Day>(today);
  const focusedParts = partsOf(focused) ?? partsOf(today)!;
  const { year, month } = focusedParts;
  const grid = useRef<HTMLTableElement>(null);
  const titleId = useId();
  const locale = LOCALES[lang];
  const monthName = new Intl.DateTimeFormat(locale, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(utcDate(dayOf(year, month, 1)));
  // "Novembro de 2026": only the first letter (CSS capitalize would give "Novembro De").
  const title = monthName.charAt(0).toLocaleUpperCase(locale) + monthName.slice(1);
  const longDay = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' });
  const weekdayName = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const weekdayLong = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  // 2023-01-01 was a Sunday.
  const weekdays = Array.from({ length: 7 }, (_, index) => utcDate(dayOf(2023, 0, 1 + index)));

  const moveTo = (day: Day, focus: boolean) => {
    setFocused(day);
    if (focus) {
      // After the render that shows the day (it may be in another month).
      requestAnimationFrame(() =>
        grid.current?.querySelector<HTMLButtonElement>(`[data-day="${day}"]`)?.focus(),
      );
    }
  };
  const shiftMonth = (by: number) => {
    const target = new Date(Date.UTC(year, month + by, 1));
    const y = target.getUTCFullYear();
    const m = target.getUTCMonth();
    return dayOf(y, m, Math.min(focusedParts.date, daysInMonth(y, m)));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, day: Day) => {
    const moves: Record<string, () => Day> = {
      ArrowLeft: () => addDays(day, -1),
      ArrowRight: () => addDays(day, 1),
      ArrowUp: () => addDays(day, -7),
      ArrowDown: () => addDays(day, 7),
      Home: () => addDays(day, -weekdayOf(day)),
      End: () => addDays(day, 6 - weekdayOf(day)),
      PageUp: () => shiftMonth(-1),
      PageDown: () => shiftMonth(1),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    moveTo(move(), true);
  };

  const dayClass = (day: Day) => {
    const names = [classes.day];
    const weekday = weekdayOf(day);
    if (weekday === 0 || weekday === 6) names.push(classes.weekend);
    if (day === today) names.push(classes.today);
    if (excluded.has(day)) names.push(classes.excluded);
    return names.join(' ');
  };

  const dayLabel = (day: Day) => {
    const parts = [longDay.format(utcDate(day))];
    if (day === today) parts.push(t('month.today'));
    if (excluded.has(day)) parts.push(t('month.excluded'));
    return parts.join(', ');
  };

  return (
    <Stack gap={6}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={t('month.previous')}
          onClick={() => moveTo(shiftMonth(-1), false)}
        >
          <IconChevronLeft size={18} aria-hidden />
        </ActionIcon>
        <Text fw={600} size="sm" aria-live="polite" id={titleId}>
          {title}
        </Text>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={t('month.next')}
          onClick={() => moveTo(shiftMonth(1), false)}
        >
          <IconChevronRight size={18} aria-hidden />
        </ActionIcon>
      </Group>
      <table className={classes.grid} role="grid" aria-labelledby={titleId} ref={grid}>
        <thead>
          <tr>
            {weekdays.map((date) => (
              <th
                key={date.getUTCDay()}
                scope="col"
                className={classes.weekday}
                abbr={weekdayLong.format(date)}
              >
                {weekdayName.format(date).replace('.', '')}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeksOf(year, month).map((week) => (
            <tr key={week.find(Boolean)}>
              {week.map((day, index) => (
                <td key={day ?? `empty-${index}`} role={day ? 'gridcell' : undefined}>
                  {day ? (
                    <button
                      type="button"
                      data-day={day}
                      className={dayClass(day)}
                      aria-pressed={excluded.has(day)}
                      aria-label={dayLabel(day)}
                      aria-current={day === today ? 'date' : undefined}
                      tabIndex={day === focused ? 0 : -1}
                      onClick={() => {
                        setFocused(day);
                        onToggle(day);
                      }}
                      onKeyDown={(event) => onKeyDown(event, day)}
                    >
                      {partsOf(day)!.date}
                    </button>
                  ) : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <Group gap="md" wrap="wrap">
        <Group gap={6} wrap="nowrap">
          <span className={`${classes.legend} ${classes.excluded}`} aria-hidden />
          <Text size="xs" c="dimmed">
            {t('month.legendExcluded')}
          </Text>
        </Group>
        <Group gap={6} wrap="nowrap">
          <span className={`${classes.legend} ${classes.weekend}`} aria-hidden />
          <Text size="xs" c="dimmed">
            {t('month.legendWeekend')}
          </Text>
        </Group>
        <Group gap={6} wrap="nowrap">
          <span className={`${classes.legend} ${classes.today}`} aria-hidden />
          <Text size="xs" c="dimmed">
            {t('month.legendToday')}
          </Text>
        </Group>
      </Group>
    </Stack>
  );
}
