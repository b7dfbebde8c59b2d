import { useQuery } from '@tanstack/react-query';
import {
  DEFAULT_STATUS_ITEMS,
  type ExecutionStatus,
  type StatusItemCategory,
  type StatusPaletteEntry,
} from '@rota/contract';
import { statusPaletteQueryOptions } from '../api/get-status-palette';

/** How each execution status reads in the selected client. */
export type StatusPalette = {
  /** `#rrggbb`. */
  color: Record<ExecutionStatus, string>;
  /** The client's own label; null reads the status's translated name. */
  label: Record<ExecutionStatus, string | null>;
  category: Record<ExecutionStatus, StatusItemCategory>;
};

function paletteOf(entries: readonly StatusPaletteEntry[]): StatusPalette {
  // Defaults first, so a status the answer lacks still has a colour.
  const all = [...DEFAULT_STATUS_ITEMS, ...entries];
  const pick = <K extends 'color' | 'label' | 'category'>(key: K) =>
    Object.fromEntries(all.map((entry) => [entry.status, entry[key]])) as Record<
      ExecutionStatus,
      StatusPaletteEntry[K]
    >;
  return { color: pick('color'), label: pick('label'), category: pick('category') };
}

/** The default palette: what badges use while the client's palette loads (or if it fails). */
export const DEFAULT_STATUS_PALETTE = paletteOf([]);

/**
 * The client's status colours, labels and categories (its status items), for badges and charts
 * wherever executions show. Needs only a session.
 */
export function useStatusPalette(): StatusPalette {
  const { data } = useQuery({ ...statusPaletteQueryOptions(), select: paletteOf });
  return data ?? DEFAULT_STATUS_PALETTE;
}
