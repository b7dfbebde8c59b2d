import { useQuery } from '@tanstack/react-query';
import { getToken } from '../../../lib/session';
import { meQueryOptions } from '../api/me';

/**
 * The signed-in user from `me`. Never asked without a token: that call could only answer 401
 * and start the session-expired popup for someone who simply is not signed in.
 */
export function useCurrentUser() {
  return useQuery({ ...meQueryOptions(), enabled: getToken() !== undefined });
}
