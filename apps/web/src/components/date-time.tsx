import { Text, type TextProps } from '@mantine/core';
import { useFormat } from '../lib/format';

type DateTimeTextProps = {
  value: string | null | undefined;
  /** `date` shows only the day. */
  mode?: 'dateTime' | 'date';
} & Omit<TextProps, 'children'>;

/**
 * A timestamp in the user's language (pt `dd/MM/yyyy HH:mm`), inside `<time>` so assistive
 * technology and copy-paste keep the exact ISO value.
 */
export function DateTimeText({ value, mode = 'dateTime', ...props }: DateTimeTextProps) {
  const format = useFormat();
  if (!value) {
    return (
      <Text component="span" c="dimmed" size="sm" {...props}>
        —
      </Text>
    );
  }
  return (
    <Text component="time" dateTime={value} size="sm" style={{ whiteSpace: 'nowrap' }} {...props}>
      {mode === 'date' ? format.date(value) : format.dateTime(value)}
    </Text>
  );
}
