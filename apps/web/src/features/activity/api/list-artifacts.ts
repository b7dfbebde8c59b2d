import { queryOptions } from '@tanstack/react-query';
import type { Artifact, ArtifactListResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { activityKeys } from './keys';
import { ACTIVITY_BASE } from './paths';

/** POST artifact/index `{id}` → the execution's artifacts, oldest first. */
export async function fetchArtifacts(executionId: number): Promise<Artifact[]> {
  const answer = await api.post<ArtifactListResponse>(
    `${ACTIVITY_BASE}/artifact/index`,
    { id: executionId },
    { quiet: true },
  );
  return answer.data;
}

export function artifactsQueryOptions(executionId: number) {
  return queryOptions({
    queryKey: activityKeys.artifacts(executionId),
    queryFn: () => fetchArtifacts(executionId),
  });
}
