/** Query keys of "My robots", so no component writes one inline. */
export const attendedKeys = {
  all: ['attended'] as const,
  robots: (search: string) => [...attendedKeys.all, 'robots', search] as const,
};
