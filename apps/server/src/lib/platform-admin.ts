import type { Actor } from '../http/types.js';
import { forbidden } from './errors.js';

/** Clients, access requests and single sign-on mappings reach across tenants: platform administrators only. */
export function assertPlatformAdmin(actor: Actor): void {
  if (!actor.user.is_platform_admin) throw forbidden();
}
