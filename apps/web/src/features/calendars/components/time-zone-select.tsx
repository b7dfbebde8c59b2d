import { Select, type SelectProps } from '@mantine/core';

let zones: string[] | undefined;

/** The IANA zones this browser knows, `UTC` among them. */
export function timeZones(): string[] {
  if (!zones) {
    const known =
      typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    zones = known.includes('UTC') ? [...known] : ['UTC', ...known];
  }
  return zones;
}

/** The browser's own zone (`America/Sao_Paulo`). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

type TimeZoneSelectProps = Omit<SelectProps, 'data' | 'value' | 'onChange' | 'searchable'> & {
  /** '' for none chosen (the server's zone applies). */
  value: string;
  onChange: (value: string) => void;
};

/**
 * A searchable select of IANA time zones (`Intl.supportedValuesOf`). A zone the browser does not
 * list (stored by another) is kept as an option so the form still shows it.
 */
export function TimeZoneSelect({ value, onChange, ...props }: TimeZoneSelectProps) {
  const all = timeZones();
  const data = value && !all.includes(value) ? [value, ...all] : all;
  return (
    <Select
      searchable
      limit={100}
      {...props}
      data={data}
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
    />
  );
}
