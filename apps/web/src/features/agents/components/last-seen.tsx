import { Text } from '@mantine/core';
import { useFormat } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { useAgentsTranslation } from '../i18n';

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** `2024-05-01T10:00:00Z` → "há 5 minutos" / "5 minutes ago", in the largest whole unit. */
export function relativeTime(value: string, lang: string, now: number = Date.now()): string {
  // A clock a little ahead of the server's must not read "in 3 seconds".
  let amount = Math.min(0, (new Date(value).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(lang === 'pt' ? 'pt-BR' : 'en-US', {
    numeric: 'auto',
  });
  for (const [unit, size] of UNITS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return format.format(Math.round(amount), 'year');
}

/**
 * When an agent was last heard from: relative, the exact local time on hover; "Nunca" if never.
 * It ticks every 10 s, and `agent` live events refresh the list, so it stays current while open.
 */
export function LastSeen({ value }: { value: string | null }) {
  const t = useAgentsTranslation();
  const format = useFormat();
  const now = useNow(10_000);
  if (!value || Number.isNaN(new Date(value).getTime())) {
    return (
      <Text size="sm" c="dimmed">
        {t('never')}
      </Text>
    );
  }
  return (
    <Text component="time" dateTime={value} size="sm" title={format.dateTime(value)}>
      {relativeTime(value, format.lang, now)}
    </Text>
  );
}
