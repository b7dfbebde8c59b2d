import { queryOptions, useMutation } from '@tanstack/react-query';
import type { AgentDownloadIndex, AgentDownloadPlatform } from '@rota/contract';
import { saveBlob } from '../../../lib/download';
import { api } from '../../../lib/http';
import { agentKeys } from './keys';
import { AGENT_DOWNLOAD_BASE } from './paths';

/** GET index: the packaged agent's version and executables (404 agent_build_missing: none). */
export function agentDownloadIndexQueryOptions() {
  return queryOptions({
    queryKey: agentKeys.download(),
    // The dialog says what went wrong itself: no popup.
    queryFn: () =>
      api
        .get<{ data: AgentDownloadIndex }>(`${AGENT_DOWNLOAD_BASE}/index`, { quiet: true })
        .then((answer) => answer.data),
    retry: false,
    staleTime: 60_000,
  });
}

/**
 * GET {platform} with the session's header, handed to the browser's save flow (a plain link
 * would carry no Authorization header).
 */
export async function downloadAgent(entry: AgentDownloadPlatform): Promise<void> {
  const file = await api.file(`${AGENT_DOWNLOAD_BASE}/${entry.platform}`);
  saveBlob(file.blob, file.fileName ?? entry.file);
}

export function useDownloadAgent() {
  return useMutation({ mutationFn: downloadAgent });
}
