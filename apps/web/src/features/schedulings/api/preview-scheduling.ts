import { queryOptions } from '@tanstack/react-query';
import type { SchedulingPreview, SchedulingPreviewResult } from '@rota/contract';
import { api } from '../../../lib/http';
import { schedulingKeys } from './keys';
import { SCHEDULING_BASE } from './paths';

/**
 * POST preview `{trigger_type, cron, time_zone, interval_minutes, rota_calendars_id}` →
 * `{data: {next: [ISO, …5]}}`: the runs the scheduling would queue, calendar days skipped.
 * Quiet: a 400 names its fields, which the form shows under them, and nothing else is worth a
 * popup while the user types.
 */
export async function previewScheduling(body: SchedulingPreview): Promise<string[]> {
  const answer = await api.post<{ data: SchedulingPreviewResult }>(
    `${SCHEDULING_BASE}/preview`,
    body,
    { quiet: true },
  );
  return answer.data.next;
}

export function schedulingPreviewQueryOptions(body: SchedulingPreview) {
  return queryOptions({
    queryKey: schedulingKeys.preview(body),
    queryFn: () => previewScheduling(body),
    staleTime: 30_000,
  });
}
