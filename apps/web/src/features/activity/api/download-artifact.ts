import { queryOptions, useMutation } from '@tanstack/react-query';
import type { Artifact } from '@rota/contract';
import { saveBlob } from '../../../lib/download';
import { api } from '../../../lib/http';
import { activityKeys } from './keys';
import { ACTIVITY_BASE } from './paths';

const downloadPath = (id: number, inline = false) =>
  `${ACTIVITY_BASE}/artifact/download?id=${id}${inline ? '&inline=1' : ''}`;

/** GET artifact/download `?id=` (attachment), fetched with the session and saved as a file. */
export async function downloadArtifact(artifact: Artifact): Promise<void> {
  const file = await api.file(downloadPath(artifact.rota_artifacts_id));
  saveBlob(file.blob, file.fileName ?? artifact.name);
}

export function useDownloadArtifact() {
  return useMutation({ mutationFn: downloadArtifact });
}

/**
 * An image artifact's bytes (`inline=1`, which the server honours for PNG, JPEG, GIF and WebP
 * only), for a thumbnail through an object URL. Artifacts never change: cached for good.
 */
export function artifactImageQueryOptions(id: number) {
  return queryOptions({
    queryKey: activityKeys.artifactImage(id),
    queryFn: async () => (await api.file(downloadPath(id, true), { quiet: true })).blob,
    staleTime: Infinity,
  });
}
