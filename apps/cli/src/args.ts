import { usage } from './errors.js';

/** A positive whole number from an argument, or a usage error that names the argument. */
export function positiveInt(value: string | undefined, name: string): number {
  if (
    value === undefined ||
    !/^\d+$/.test(value) ||
    Number(value) < 1 ||
    Number(value) > 2 ** 31 - 1
  ) {
    throw usage(`${name} must be a positive whole number`);
  }
  return Number(value);
}

/** Seconds, fractions allowed (a short poll interval). */
export function seconds(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(n)) {
    throw usage(`${name} must be a number of seconds`);
  }
  return n;
}

/** A JSON object from an argument; task data is always an object. */
export function jsonObject(value: string | undefined, name: string): Record<string, unknown> {
  if (value === undefined) throw usage(`${name} is required`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw usage(`${name} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw usage(`${name} must be a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

export function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw usage(`missing ${name}`);
  return value;
}
