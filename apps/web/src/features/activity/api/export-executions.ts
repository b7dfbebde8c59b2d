import { useMutation } from '@tanstack/react-query';
import type { ActivityExportQuery } from '@rota/contract';
import { saveBlob } from '../../../lib/download';
import { api, isApiError } from '../../../lib/http';
import { showErrorToast } from '../../../lib/notify';
import { ACTIVITY_BASE } from './paths';

/**
 * POST export with the list's filters (the range required) → `text/csv` attachment of the whole
 * filtered range, fetched with the session's token and handed to the browser as a file.
 */
export async function exportExecutions(body: ActivityExportQuery): Promise<void> {
  // Dates in the file read as the tables show them: in the browser's zone (the language, and
  // with it the delimiter and the words, goes in Accept-Language).
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const file = await api.download(`${ACTIVITY_BASE}/export`, { timeZone, ...body });
  saveBlob(file.blob, file.fileName ?? `activity_${body.startDate}_${body.endDate}.csv`);
}

export function useExportExecutions() {
  return useMutation({
    mutationFn: exportExecutions,
    // The client reports every failure but a 400, which has no form to show it under here.
    onError: (error) => {
      if (isApiError(error) && error.status === 400) showErrorToast(error);
    },
  });
}
