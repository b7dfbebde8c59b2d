/** Query keys of the auth area, so no component writes one inline. */
export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
  checkCode: (code: string) => [...authKeys.all, 'check-code', code] as const,
};
