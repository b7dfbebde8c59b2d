import { useState } from 'react';

/**
 * Selected row keys for a DataTable's bulk actions. The selection empties whenever `resetKey`
 * changes (pass the list's query, e.g. `JSON.stringify(list.query)`), so a bulk action never acts
 * on rows the user can no longer see.
 */
export function useRowSelection<K extends string | number>(resetKey: string) {
  const [selected, setSelected] = useState<K[]>([]);
  const [key, setKey] = useState(resetKey);
  if (key !== resetKey) {
    setKey(resetKey);
    setSelected([]);
  }
  return { selected, onChange: setSelected, clear: () => setSelected([]) };
}
