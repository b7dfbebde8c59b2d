import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  LogStreamConfig,
  LogStreamCreate,
  LogStreamTest,
  LogStreamUpdate,
} from '@rota/contract';
import { api } from '../../../lib/http';
import { logStreamKeys } from './keys';
import { LOG_STREAM_BASE } from './paths';

/** POST create → 201 `{message, data}`; 400 on fields (`host`…), 409 on a taken name. */
export function createLogStream(
  body: LogStreamCreate,
): Promise<{ message: string; data: LogStreamConfig }> {
  return api.post(`${LOG_STREAM_BASE}/create`, body);
}

/** PUT update → 204; `ca_certificate` left out keeps the one kept, null removes it. */
export function updateLogStream(body: LogStreamUpdate): Promise<void> {
  return api.put<void>(`${LOG_STREAM_BASE}/update`, body);
}

/** POST delete `{id}` → 202 `{message}` (its waiting messages go with it). */
export function deleteLogStream(id: number): Promise<{ message: string }> {
  return api.post(`${LOG_STREAM_BASE}/delete`, { id });
}

/** POST test `{id}` → `{message, data}` once the one attempt is over: delivered or not. */
export function sendLogStreamTest(id: number): Promise<{ message: string; data: LogStreamTest }> {
  return api.post(`${LOG_STREAM_BASE}/test`, { id }, { quietSuccess: true });
}

function useListChange<A, R>(fn: (arg: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: logStreamKeys.lists() }),
  });
}

export const useCreateLogStream = () => useListChange(createLogStream);
export const useUpdateLogStream = () => useListChange(updateLogStream);
export const useDeleteLogStream = () => useListChange(deleteLogStream);
export const useSendLogStreamTest = () => useListChange(sendLogStreamTest);
