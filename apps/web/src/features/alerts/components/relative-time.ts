const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/**
 * "há 5 minutos" / "in 30 seconds": both ways, since a delivery's next try lies ahead (the
 * agents' relativeTime clamps to the past on purpose).
 */
export function relativeTimeBothWays(value: string, lang: string, now: number): string {
  let amount = (new Date(value).getTime() - now) / 1000;
  const format = new Intl.RelativeTimeFormat(lang === 'pt' ? 'pt-BR' : 'en-US', {
    numeric: 'auto',
  });
  for (const [unit, size] of UNITS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return format.format(Math.round(amount), 'year');
}
