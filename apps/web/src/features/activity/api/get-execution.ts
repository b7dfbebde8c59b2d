import { queryOptions } from '@tanstack/react-query';
import type { ExecutionDetail } from '@rota/contract';
import { api } from '../../../lib/http';
import { activityKeys } from './keys';
import { ACTIVITY_BASE } from './paths';

/** POST show `{id}` → `{data}` with `attempt_list`; quiet: the page explains a 404 itself. */
export async function fetchExecution(id: number): Promise<ExecutionDetail> {
  const answer = await api.post<{ data: ExecutionDetail }>(
    `${ACTIVITY_BASE}/show`,
    { id },
    { quiet: true },
  );
  return answer.data;
}

export function executionQueryOptions(id: number) {
  return queryOptions({
    queryKey: activityKeys.detail(id),
    queryFn: () => fetchExecution(id),
  });
}
