/** Query keys of the sessions area, so no component writes one inline. */
export const sessionKeys = {
  all: ['sessions'] as const,
  list: () => [...sessionKeys.all, 'list'] as const,
};
