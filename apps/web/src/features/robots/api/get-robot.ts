import { queryOptions } from '@tanstack/react-query';
import type { Robot } from '@rota/contract';
import { api } from '../../../lib/http';
import { robotKeys } from './keys';
import { ROBOT_BASE } from './paths';

/**
 * POST show → `{data}`. Quiet: the detail page explains a 404 itself instead of a popup, and a
 * robot's name in a table cell is not worth one.
 */
export async function fetchRobot(id: number): Promise<Robot> {
  const answer = await api.post<{ data: Robot }>(`${ROBOT_BASE}/show`, { id }, { quiet: true });
  return answer.data;
}

export function robotQueryOptions(id: number) {
  return queryOptions({
    queryKey: robotKeys.detail(id),
    queryFn: () => fetchRobot(id),
    staleTime: 30_000,
  });
}
