import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { OidcLinkStartResponse, OidcLinkStatus, OidcUnlink } from '@rota/contract';
import { api } from '../../../lib/http';
import { oidcKeys } from './keys';
import { OIDC_AUTH_BASE } from './paths';

/** GET link → `{linked, linked_at}`: one's own account. */
export function fetchOidcLink(): Promise<OidcLinkStatus> {
  return api.get<OidcLinkStatus>(`${OIDC_AUTH_BASE}/link`, { quiet: true });
}

export function oidcLinkQueryOptions() {
  return queryOptions({ queryKey: oidcKeys.link(), queryFn: fetchOidcLink });
}

/**
 * POST link/start → `{url}`: a call, not a link, because it needs the session (the answer also
 * sets the attempt's cookie); the browser then goes to the provider and comes back to My account.
 */
export function startOidcLink(): Promise<OidcLinkStartResponse> {
  return api.post<OidcLinkStartResponse>(`${OIDC_AUTH_BASE}/link/start`, undefined, {
    quietSuccess: true,
  });
}

let leave = (url: string) => window.location.assign(url);

/** The provider's page is another site: a full navigation (swappable: jsdom cannot navigate). */
export function leaveForProvider(url: string): void {
  leave(url);
}

export function setProviderNavigator(navigate: (url: string) => void): void {
  leave = navigate;
}

/** POST link/delete `{password}` → `{message}`. */
export function useUnlinkOidc() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OidcUnlink) =>
      api.post<{ message: string }>(`${OIDC_AUTH_BASE}/link/delete`, body, { announce: true }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: oidcKeys.link() }),
  });
}
