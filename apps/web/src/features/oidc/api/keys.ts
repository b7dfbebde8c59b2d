import type { oidcMappingListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type OidcMappingListBody = z.input<typeof oidcMappingListQuerySchema>;

/** Query keys of the single sign-on area, so no component writes one inline. */
export const oidcKeys = {
  all: ['oidc'] as const,
  config: () => [...oidcKeys.all, 'config'] as const,
  link: () => [...oidcKeys.all, 'link'] as const,
  mappings: () => [...oidcKeys.all, 'mappings'] as const,
  mappingList: (body: OidcMappingListBody) => [...oidcKeys.mappings(), body] as const,
  clientOptions: (search: string) => [...oidcKeys.all, 'client-options', search] as const,
  clientProfiles: (id: number) => [...oidcKeys.all, 'client-profiles', id] as const,
};
