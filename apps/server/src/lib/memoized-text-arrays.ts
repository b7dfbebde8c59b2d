import pg from 'pg';

// pg's types name only scalar types; 1009 is `text[]` (pg_type's _text).
const TEXT_ARRAY_OID = 1009 as Parameters<typeof pg.types.getTypeParser>[0];
const KEPT = 1_000;

/**
 * pg's parsers, but a `text[]` is parsed once per distinct text and the same frozen array is
 * answered after that. For a column that repeats a few values on every request: a profile's
 * permissions, read by the session statement on every authenticated call, parsed anew each time
 * cost about 6 % of the server's time on `me`, while there is one list per profile.
 * Frozen because every caller shares it. Past KEPT distinct texts it starts over, so a
 * platform of many profiles costs a parse now and then, never unbounded memory.
 */
export function memoizedTextArrays(): pg.CustomTypesConfig {
  const parseTextArray = pg.types.getTypeParser(TEXT_ARRAY_OID, 'text');
  const parsed = new Map<string, readonly string[]>();
  const memoized = (text: string) => {
    let list = parsed.get(text);
    if (!list) {
      if (parsed.size >= KEPT) parsed.clear();
      list = Object.freeze(parseTextArray(text) as string[]);
      parsed.set(text, list);
    }
    return list;
  };
  return {
    getTypeParser: (oid, format) =>
      oid === TEXT_ARRAY_OID && format !== 'binary'
        ? memoized
        : pg.types.getTypeParser(oid, format),
  };
}
