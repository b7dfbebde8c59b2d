import { useTranslation } from 'react-i18next';
import { DEFAULT_LANGUAGE, type Language } from '@rota/contract';
import { currentLanguage, isLanguage } from './i18n';

/**
 * Dates, sizes and numbers in the user's language. Built on Intl (no date library);
 * formatters are cached per language because constructing them is the slow part.
 */
/** The Intl locale of each console language. */
export const LOCALES: Record<Language, string> = { pt: 'pt-BR', en: 'en-US' };

/**
 * Each formatter is built the first time a page asks for it: building one is the slow part (tens
 * of milliseconds on a phone), and most pages never need them.
 */
const FACTORIES = {
  number: (locale: string) => new Intl.NumberFormat(locale),
  decimal: (locale: string) => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }),
};

type Formatters = { [K in keyof typeof FACTORIES]: ReturnType<(typeof FACTORIES)[K]> };

const cache = new Map<string, Formatters[keyof Formatters]>();

function formatter<K extends keyof Formatters>(lang: Language, kind: K): Formatters[K] {
  const key = `${lang}:${kind}`;
  let found = cache.get(key) as Formatters[K] | undefined;
  if (!found) {
    found = FACTORIES[kind](LOCALES[lang]) as Formatters[K];
    cache.set(key, found);
  }
  return found;
}

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * Dates and times are written here as `Intl.DateTimeFormat` writes them in pt-BR and en-US (the
 * test compares them over many instants), in the browser's time zone: building the first
 * DateTimeFormat loads the locale's calendar data, ≈60 ms of a phone's robots list render with
 * 20 rows (bench/profile-page.ts).
 */
function dayText(date: Date, lang: Language): string {
  const day = pad2(date.getDate());
  const month = pad2(date.getMonth() + 1);
  const year = date.getFullYear();
  return lang === 'pt' ? `${day}/${month}/${year}` : `${month}/${day}/${year}`;
}

/** pt: 24-hour `HH:mm`; en: `5:05 PM`. */
function timeText(date: Date, lang: Language): string {
  const hours = date.getHours();
  const minutes = pad2(date.getMinutes());
  if (lang === 'pt') return `${pad2(hours)}:${minutes}`;
  return `${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** `dd/MM/yyyy HH:mm` in pt, `MM/dd/yyyy h:mm AM` in en; '' for no date. */
export function formatDateTime(
  value: string | number | Date | null | undefined,
  lang: Language = currentLanguage(),
): string {
  const date = toDate(value);
  if (!date) return '';
  return `${dayText(date, lang)} ${timeText(date, lang)}`;
}

/**
 * A calendar day. `YYYY-MM-DD` strings are days, not instants: they are shown as written,
 * whatever the browser's time zone.
 */
export function formatDate(
  value: string | number | Date | null | undefined,
  lang: Language = currentLanguage(),
): string {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const [y, m, d] = value.split('-').map(Number) as [number, number, number];
    return dayText(new Date(y, m - 1, d), lang);
  }
  const date = toDate(value);
  return date ? dayText(date, lang) : '';
}

/**
 * `["a", "b", "c"]` → `a, b ou c` (pt) / `a, b, or c` (en), as `Intl.ListFormat` writes them:
 * building one loads the locale's list patterns, ≈85 ms of the dashboard's first paint on a
 * phone, for two patterns.
 */
export function formatDisjunction(items: string[], lang: Language = currentLanguage()): string {
  if (items.length <= 2) return items.join(lang === 'pt' ? ' ou ' : ' or ');
  const head = items.slice(0, -1).join(', ');
  return lang === 'pt' ? `${head} ou ${items.at(-1)}` : `${head}, or ${items.at(-1)}`;
}

/** The digit group separator of each language's whole numbers (`1.234` in pt, `1,234` in en). */
const GROUP_SEPARATORS: Record<Language, string> = { pt: '.', en: ',' };

/**
 * Whole numbers are grouped here as `Intl.NumberFormat` groups them (the test compares them):
 * building the first formatter loads the locale's number data, ≈60 ms of the dashboard's first
 * render on a phone, and the console's numbers are nearly all counts.
 */
export function formatNumber(value: number, lang: Language = currentLanguage()): string {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) {
    return formatter(lang, 'number').format(value);
  }
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, GROUP_SEPARATORS[lang]);
  return value < 0 ? `-${digits}` : digits;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** 1536 → `1,5 KB` (pt) / `1.5 KB` (en); units of 1024. */
export function formatBytes(bytes: number, lang: Language = currentLanguage()): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = formatter(lang, unit === 0 ? 'number' : 'decimal');
  return `${digits.format(value)} ${BYTE_UNITS[unit]}`;
}

const DURATION_UNITS: ReadonlyArray<[string, number]> = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1000],
];

/**
 * Humanised duration, its two largest units: `850` → `< 1 s`, `65_000` → `1 min 5 s`,
 * `7_500_000` → `2 h 5 min`; '' for none. The unit symbols read the same in pt and en.
 */
export function formatDuration(
  ms: number | null | undefined,
  lang: Language = currentLanguage(),
): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return '< 1 s';
  const number = formatter(lang, 'number');
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of DURATION_UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || parts.length > 0) parts.push(`${number.format(count)} ${unit}`);
    if (parts.length === 2) break;
  }
  // "2 h 0 min" says no more than "2 h".
  return parts.filter((part, index) => index === 0 || !part.startsWith('0 ')).join(' ');
}

/** Today as `YYYY-MM-DD` in the browser's time zone (date inputs, date-range limits). */
export function todayIsoDate(now: Date = new Date()): string {
  return isoDateOf(now);
}

/** A Date as the local calendar day `YYYY-MM-DD`. */
export function isoDateOf(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A Date as the value of an `<input type="datetime-local">` (`YYYY-MM-DDTHH:mm`, local). */
export function localDateTimeInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${isoDateOf(date)}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The formatters bound to the current language; components that use it re-render when the
 * language changes.
 */
export function useFormat() {
  const { i18n } = useTranslation();
  const lang: Language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  return {
    lang,
    dateTime: (value: string | number | Date | null | undefined) => formatDateTime(value, lang),
    date: (value: string | number | Date | null | undefined) => formatDate(value, lang),
    number: (value: number) => formatNumber(value, lang),
    disjunction: (items: string[]) => formatDisjunction(items, lang),
    bytes: (value: number) => formatBytes(value, lang),
    duration: (ms: number | null | undefined) => formatDuration(ms, lang),
  };
}
