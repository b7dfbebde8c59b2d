/**
 * Request generation for the OpenAPI-driven fuzz test: a valid body from an operation's JSON
 * schema, then bodies that break it one place at a time (wrong types, NUL, huge strings, bad
 * dates, out-of-range numbers, missing fields). Deterministic: every choice comes from a seeded
 * PRNG.
 */

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  nullable?: boolean;
  additionalProperties?: boolean | JsonSchema;
};

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    /** `count` distinct items (all of them when there are fewer). */
    sample: <T>(items: readonly T[], count: number): T[] => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, count);
    },
  };
}
export type Prng = ReturnType<typeof prng>;

const today = () => new Date().toISOString().slice(0, 10);

/** Values the caller knows are real (a robot's id, the claimed execution, …), by field name. */
export type Known = Record<string, unknown>;

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  return schema.type;
}

/** A value the schema accepts, preferring the `known` value of a field of that name. */
export function validValue(schema: JsonSchema, known: Known, name = '', depth = 0): unknown {
  if (name in known) return known[name];
  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    const first = options.find((o) => typeOf(o) !== 'null' && o.type !== undefined) ?? options[0];
    return first ? validValue(first, known, name, depth) : null;
  }
  if (schema.allOf?.[0]) return validValue(schema.allOf[0], known, name, depth);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 4) return out;
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        out[key] = validValue(child, known, key, depth + 1);
      }
      return out;
    }
    case 'array':
      return depth > 4 || !schema.items
        ? []
        : Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () =>
            validValue(schema.items!, known, name, depth + 1),
          );
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 1;
      const value = schema.exclusiveMinimum === true ? min + 1 : Math.max(min, 1);
      return typeof schema.maximum === 'number' ? Math.min(value, schema.maximum) : value;
    }
    case 'boolean':
      return false;
    case 'string': {
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/';
      if (/date$/i.test(name)) return today();
      const text = 'fuzz';
      return text.padEnd(Math.max(schema.minLength ?? 0, 1), 'z').slice(0, schema.maxLength ?? 64);
    }
    default:
      return 'fuzz';
  }
}

/** A path into a body: object keys and array indexes. */
type Path = (string | number)[];

/** Every place in a value where another value could go. */
export function leafPaths(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) {
    return [path, ...value.flatMap((v, i) => leafPaths(v, [...path, i]))];
  }
  if (value && typeof value === 'object') {
    const own = Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...path, k]));
    return path.length ? [path, ...own] : own;
  }
  return [path];
}

const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/** `value` with the thing at `path` replaced (or removed when `replacement` is REMOVE). */
export const REMOVE = Symbol('remove');
export function withAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement === REMOVE ? undefined : replacement;
  const root = clone(value) as Record<string | number, unknown>;
  let at = root;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (replacement === REMOVE) {
    if (Array.isArray(at)) at.splice(Number(last), 1);
    else delete at[last];
  } else at[last] = replacement;
  return root;
}

const NUL = '\u0000';

/** Bad values for one place, whatever it holds. */
export function badValues(current: unknown, rng: Prng): unknown[] {
  const text = typeof current === 'string' ? current : 'fuzz';
  return [
    REMOVE,
    null,
    true,
    [],
    {},
    { nested: NUL },
    `${text}${NUL}`,
    NUL,
    `a${NUL}b${NUL}`,
    '\ud800',
    'é'.repeat(300),
    'x'.repeat(300_000),
    '',
    '   ',
    "'; drop table users; --",
    '%_\\',
    '0000-01-01',
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
    '-000001-01-01T00:00:00Z',
    '+275760-09-13T00:00:00.000Z',
    '2024-02-30',
    '99999-01-01',
    '1e400',
    'NaN',
    0,
    -1,
    1.5,
    2 ** 31,
    2 ** 31 - 1,
    -(2 ** 31) - 1,
    2 ** 53 + 2,
    -(2 ** 63),
    1e308,
    Number(`1e${Math.floor(rng.next() * 20) + 10}`),
  ];
}

/** Every string in a value, NUL-ed; every number, huge. */
export function mapLeaves(value: unknown, map: (leaf: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => mapLeaves(v, map));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapLeaves(v, map)]));
  }
  return map(value);
}

/** What goes in the failure report: long strings shortened. */
export function describeBody(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (text === undefined) return '(no body)';
  return text.length > 400 ? `${text.slice(0, 400)}… (${text.length} chars)` : text;
}
