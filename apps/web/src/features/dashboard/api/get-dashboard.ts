import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Dashboard, DashboardQuery } from '@rota/contract';
import { api } from '../../../lib/http';
import { dashboardKeys } from './keys';
import { DASHBOARD_BASE } from './paths';

/** POST index `{startDate, endDate}` → `{data}`: categories, executions per day, fleet, failing robots. */
export async function fetchDashboard(range: DashboardQuery): Promise<Dashboard> {
  const answer = await api.post<{ data: Dashboard }>(`${DASHBOARD_BASE}/index`, range);
  return answer.data;
}

/** Tasks turn at risk or breached with time alone: an open dashboard refetches this often. */
export const DASHBOARD_REFRESH_MS = 30_000;

export function dashboardQueryOptions(range: DashboardQuery) {
  return queryOptions({
    queryKey: dashboardKeys.detail(range),
    queryFn: () => fetchDashboard(range),
    // Another range keeps the figures on screen until its own arrive.
    placeholderData: keepPreviousData,
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
}
