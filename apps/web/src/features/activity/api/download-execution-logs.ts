import { useMutation } from '@tanstack/react-query';
import { saveBlob } from '../../../lib/download';
import { api } from '../../../lib/http';
import { ACTIVITY_BASE } from './paths';

/** GET logs/download `?id=` → the whole log as a text file, saved by the browser. */
export async function downloadExecutionLogs(executionId: number): Promise<void> {
  const file = await api.file(`${ACTIVITY_BASE}/logs/download?id=${executionId}`);
  saveBlob(file.blob, file.fileName ?? `execution-${executionId}.log`);
}

export function useDownloadExecutionLogs() {
  return useMutation({ mutationFn: downloadExecutionLogs });
}
