import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountUpdate, AccountUpdateResponse, MeResponse } from '@rota/contract';
import { api, type CallOptions } from '../../../lib/http';
import { authKeys } from '../../auth';

/** PUT account/update → 200 `{message, data: me}`: one's own account, no permission needed. */
export function updateAccount(
  body: AccountUpdate,
  options: CallOptions = {},
): Promise<AccountUpdateResponse> {
  return api.put<AccountUpdateResponse>('/user/api/v1/account/update', body, options);
}

/** The answer is the new `me`: the cache takes it, so the header and menu show it at once. */
export function useUpdateAccount(options: CallOptions = { announce: true }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountUpdate) => updateAccount(body, options),
    onSuccess: ({ data }) => {
      queryClient.setQueryData<MeResponse>(authKeys.me(), data);
    },
  });
}
