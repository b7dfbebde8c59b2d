import type { MeResponse } from '@rota/contract';

/** Whether `user` is a platform administrator (manages clients and access requests). */
export function useIsPlatformAdmin(user: MeResponse | undefined): {
  isPlatformAdmin: boolean;
  isPending: boolean;
} {
  if (!user) return { isPlatformAdmin: false, isPending: true };
  return { isPlatformAdmin: user.is_platform_admin, isPending: false };
}
