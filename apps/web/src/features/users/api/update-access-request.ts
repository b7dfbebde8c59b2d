import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccessRequestUpdate } from '@rota/contract';
import { api, type CallOptions } from '../../../lib/http';
import { accessRequestKeys } from './keys';
import { ACCESS_REQUEST_BASE } from './paths';

/** PUT update `{id, status}` → 204: dismiss a request, or mark it approved once its user exists. */
export function updateAccessRequest(
  body: AccessRequestUpdate,
  options: CallOptions = {},
): Promise<void> {
  return api.put<void>(`${ACCESS_REQUEST_BASE}/update`, body, options);
}

export function useUpdateAccessRequest(options: CallOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccessRequestUpdate) => updateAccessRequest(body, options),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accessRequestKeys.all }),
  });
}
