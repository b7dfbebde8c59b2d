import { DateInput, type DateInputProps } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/pt-br';
import '@mantine/dates/styles.css';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, type Language } from '@rota/contract';
import { isLanguage } from '../lib/i18n';

// Typed text is read with the language's own format (strict), never the browser's.
dayjs.extend(customParseFormat);

type Formats = {
  /** dayjs locale of the calendar's month and weekday names. */
  locale: string;
  /** As the tables show a day (lib/format.ts): pt `24/11/2026`, en `11/24/2026`. */
  day: string;
  /** As the tables show an instant: pt `24/11/2026 23:59`, en `11/24/2026 11:59 PM`. */
  dayTime: string;
  /** Other spellings read when typed (en hours with or without a leading zero, am/pm). */
  dayTimeAlso: string[];
  dayPlaceholder: string;
  dayTimePlaceholder: string;
};

/** Date inputs follow the console's language, as lib/format.ts does for the tables. */
export const DATE_INPUT_FORMATS: Record<Language, Formats> = {
  pt: {
    locale: 'pt-br',
    day: 'DD/MM/YYYY',
    dayTime: 'DD/MM/YYYY HH:mm',
    dayTimeAlso: ['DD/MM/YYYY H:mm'],
    dayPlaceholder: 'dd/mm/aaaa',
    dayTimePlaceholder: 'dd/mm/aaaa hh:mm',
  },
  en: {
    locale: 'en',
    day: 'MM/DD/YYYY',
    dayTime: 'MM/DD/YYYY h:mm A',
    dayTimeAlso: ['MM/DD/YYYY hh:mm A', 'MM/DD/YYYY h:mm a', 'MM/DD/YYYY hh:mm a'],
    dayPlaceholder: 'mm/dd/yyyy',
    dayTimePlaceholder: 'mm/dd/yyyy hh:mm AM',
  },
};

function useFormats(): Formats {
  const { i18n } = useTranslation();
  const lang: Language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  return DATE_INPUT_FORMATS[lang];
}

/** `24/11/2026` (pt) as `2026-11-24`; null while the text is not a whole real day. */
export function parseDay(text: string, formats: Formats): string | null {
  const parsed = dayjs(text.trim(), formats.day, formats.locale, true);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD') : null;
}

/** `24/11/2026 23:59` (pt) as Mantine's `2026-11-24 23:59:00`; null while incomplete. */
export function parseDayTime(text: string, formats: Formats): string | null {
  const parsed = dayjs(
    text.trim().replace(/\s+/g, ' '),
    [formats.dayTime, ...formats.dayTimeAlso],
    formats.locale,
    true,
  );
  return parsed.isValid() ? parsed.format('YYYY-MM-DD HH:mm:ss') : null;
}

type BaseProps = Omit<
  DateInputProps,
  'value' | 'defaultValue' | 'onChange' | 'valueFormat' | 'dateParser' | 'withTime'
>;

type DayInputProps = BaseProps & {
  /** `YYYY-MM-DD`, or '' for none. */
  value: string;
  onChange: (value: string) => void;
};

/** A calendar day typed or picked in the console's language; the value stays `YYYY-MM-DD`. */
export function DayInput({ value, onChange, ...props }: DayInputProps) {
  const formats = useFormats();
  return (
    <DateInput
      // A new language re-mounts the input so the typed text is re-formatted too.
      key={formats.locale}
      locale={formats.locale}
      // Weeks start on Sunday in Brazil and the US alike (Mantine defaults to Monday).
      firstDayOfWeek={0}
      valueFormat={formats.day}
      dateParser={(text) => parseDay(text, formats)}
      placeholder={formats.dayPlaceholder}
      // Emptied text is no day (a required one then says so), not the last day typed.
      allowDeselect
      value={value === '' ? null : value}
      onChange={(next) => onChange(next ?? '')}
      {...props}
    />
  );
}

type DayTimeInputProps = BaseProps & {
  /** `YYYY-MM-DDTHH:mm` (what `datetime-local` gave, local time), or '' for none. */
  value: string;
  onChange: (value: string) => void;
};

/** A local day and time typed or picked in the console's language (pt 24 h, en 12 h). */
export function DayTimeInput({ value, onChange, ...props }: DayTimeInputProps) {
  const formats = useFormats();
  return (
    <DateInput
      key={formats.locale}
      locale={formats.locale}
      // Weeks start on Sunday in Brazil and the US alike (Mantine defaults to Monday).
      firstDayOfWeek={0}
      withTime
      valueFormat={formats.dayTime}
      dateParser={(text) => parseDayTime(text, formats)}
      placeholder={formats.dayTimePlaceholder}
      allowDeselect
      value={value === '' ? null : value.replace('T', ' ')}
      onChange={(next) => onChange(next ? dayjs(next).format('YYYY-MM-DDTHH:mm') : '')}
      {...props}
    />
  );
}
