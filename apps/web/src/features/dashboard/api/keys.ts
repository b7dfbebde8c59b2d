import type { DashboardQuery } from '@rota/contract';

/** Query keys of the dashboard, so no component writes one inline. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  detail: (range: DashboardQuery) => [...dashboardKeys.all, range] as const,
};
