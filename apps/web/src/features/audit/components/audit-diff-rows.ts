/** How one field of a record compares between `before` and `after`. */
export type DiffStatus = 'added' | 'removed' | 'changed' | 'same';

export type DiffRow = {
  /** The field's name; '' when the record is a single value rather than an object. */
  key: string;
  before: unknown;
  after: unknown;
  status: DiffStatus;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const present = (value: unknown) => value !== null && value !== undefined;

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` compare equal. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function sameValue(a: unknown, b: unknown): boolean {
  return stableJson(a) === stableJson(b);
}

/**
 * The fields of an audit record side by side: every key of `after` in its order, then the keys
 * only `before` had. A create has no `before` (every field is added), a delete no `after`.
 */
export function auditDiffRows(before: unknown, after: unknown): DiffRow[] {
  const hasBefore = present(before);
  const hasAfter = present(after);
  if (!hasBefore && !hasAfter) return [];
  if ((!hasBefore || isRecord(before)) && (!hasAfter || isRecord(after))) {
    const b: Record<string, unknown> = hasBefore ? (before as Record<string, unknown>) : {};
    const a: Record<string, unknown> = hasAfter ? (after as Record<string, unknown>) : {};
    const keys = [...Object.keys(a), ...Object.keys(b).filter((key) => !Object.hasOwn(a, key))];
    return keys.map((key) => {
      const inBefore = Object.hasOwn(b, key);
      const inAfter = Object.hasOwn(a, key);
      const status: DiffStatus = !inBefore
        ? 'added'
        : !inAfter
          ? 'removed'
          : sameValue(b[key], a[key])
            ? 'same'
            : 'changed';
      return { key, before: b[key], after: a[key], status };
    });
  }
  // A list or a plain value on either side: compared as a whole.
  const status: DiffStatus = !hasBefore
    ? 'added'
    : !hasAfter
      ? 'removed'
      : sameValue(before, after)
        ? 'same'
        : 'changed';
  return [{ key: '', before, after, status }];
}
