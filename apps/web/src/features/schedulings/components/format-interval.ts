export type MinutesUnit = 'minutes' | 'hours' | 'days';

/** 15 → 15 minutes, 120 → 2 hours, 2880 → 2 days: the largest unit that divides it exactly. */
export function splitMinutes(minutes: number): { unit: MinutesUnit; count: number } {
  if (minutes > 0 && minutes % 1440 === 0) return { unit: 'days', count: minutes / 1440 };
  if (minutes > 0 && minutes % 60 === 0) return { unit: 'hours', count: minutes / 60 };
  return { unit: 'minutes', count: minutes };
}
