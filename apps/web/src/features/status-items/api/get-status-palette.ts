import { queryOptions } from '@tanstack/react-query';
import type { StatusPaletteEntry } from '@rota/contract';
import { api } from '../../../lib/http';
import { statusItemKeys } from './keys';
import { STATUS_ITEM_BASE } from './paths';

/**
 * POST palette → `{data: [{status, category, label, color}]}`, for any signed-in user. Quiet:
 * badges fall back to the default colours rather than raise a popup.
 */
export async function fetchStatusPalette(): Promise<StatusPaletteEntry[]> {
  const answer = await api.post<{ data: StatusPaletteEntry[] }>(
    `${STATUS_ITEM_BASE}/palette`,
    {},
    { quiet: true },
  );
  return answer.data;
}

export function statusPaletteQueryOptions() {
  return queryOptions({
    queryKey: statusItemKeys.palette(),
    queryFn: fetchStatusPalette,
    // Items change rarely, and an edit here invalidates it at once.
    staleTime: 5 * 60_000,
  });
}
