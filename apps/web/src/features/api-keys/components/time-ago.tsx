import { Text } from '@mantine/core';
import { useFormat } from '../../../lib/format';
import { relativeTime } from '../../agents';

/**
 * When a secret was last used ("há 5 minutos"), the exact time on hover; `empty` when never.
 * `now` comes from the list's own `useNow`, so every row moves on together.
 */
export function TimeAgo({
  value,
  now,
  empty,
}: {
  value: string | null;
  now: number;
  empty: string;
}) {
  const format = useFormat();
  if (!value) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <Text
      component="time"
      dateTime={value}
      size="sm"
      title={format.dateTime(value)}
      style={{ whiteSpace: 'nowrap' }}
    >
      {relativeTime(value, format.lang, now)}
    </Text>
  );
}
