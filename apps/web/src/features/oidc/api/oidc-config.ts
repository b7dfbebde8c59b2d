import { hashKey, queryOptions, type Query } from '@tanstack/react-query';
import type { OidcPublicConfig } from '@rota/contract';
import { plainApi } from '../../../lib/http';
import { API_BASE } from '../../../lib/http/request';
import { oidcKeys } from './keys';
import { OIDC_AUTH_BASE } from './paths';

/** GET config (public) → `{enabled, label, local_login}`, not wrapped. */
export function fetchOidcConfig(): Promise<OidcPublicConfig> {
  return plainApi.get<OidcPublicConfig>(`${OIDC_AUTH_BASE}/config`, { quiet: true });
}

export function oidcConfigQueryOptions() {
  return queryOptions({
    queryKey: oidcKeys.config(),
    queryFn: fetchOidcConfig,
    // Set from the server's environment: it does not change while the page is open.
    staleTime: Infinity,
    retry: false,
  });
}

/**
 * Whether a cached query is this public configuration: no session's data, so the sign-in page
 * keeps it when it clears the previous session's (its own observers have just asked for it).
 */
export function isOidcConfigQuery(query: Query): boolean {
  return query.queryHash === hashKey(oidcKeys.config());
}

/**
 * The start address: a full navigation (the provider's page follows), so a link, not a fetch.
 * `returnTo` was already made same-origin by `safeRedirect`; the server checks it again.
 */
export function oidcStartUrl(returnTo: string): string {
  return `${API_BASE}${OIDC_AUTH_BASE}/start?return_to=${encodeURIComponent(returnTo)}`;
}
