/** Query keys of the second factor area, so no component writes one inline. */
export const mfaKeys = {
  all: ['mfa'] as const,
  status: () => [...mfaKeys.all, 'status'] as const,
};
