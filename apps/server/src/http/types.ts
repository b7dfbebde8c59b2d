import type { ClientSummary, Language, Permission } from '@rota/contract';
import type { TenantScope } from '../lib/tenant-scope.js';

export interface SessionUser {
  users_id: number;
  name: string;
  last_name: string;
  email: string;
  group: string | null;
  avatar: string | null;
  password_change_required: boolean;
  is_platform_admin: boolean;
  rota_clients_id_selected: number | null;
}

/** Who is calling and for which client: what services take explicitly. */
export interface Actor {
  sessionId: number;
  user: SessionUser;
  /** The selected client, when the user holds a membership in it. */
  scope: TenantScope | null;
  permissions: Permission[];
}

export type { ClientSummary };

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    /** Open without a session (sign-in, recovery, health, docs). */
    public?: boolean;
    /** Every one must be held in the selected client (SPEC §6). */
    permissions?: readonly Permission[];
    /** Reachable while the user still has to replace their password. */
    allowPasswordChangePending?: boolean;
  }
}
