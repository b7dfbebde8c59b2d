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
  /** The console's language and colour scheme the user chose; absent for API keys. */
  language?: string | null;
  color_scheme?: string | null;
}

/** Who is calling and for which client: what services take explicitly. */
export interface Actor {
  /** 0 for a personal API key (no session; routes that end or move a session refuse keys). */
  sessionId: number;
  user: SessionUser;
  /** The selected client, when the user holds a membership in it. */
  scope: TenantScope | null;
  permissions: Permission[];
  /** The personal API key the request was made with; absent for a session. */
  apiKey?: { id: number; name: string };
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
    /** Every one must be held in the selected client. */
    permissions?: readonly Permission[];
    /** Reachable while the user still has to replace their password. */
    allowPasswordChangePending?: boolean;
    /** Refused (403) to a personal API key: session-only calls (sign-out, client choice, keys). */
    noApiKey?: boolean;
  }
}
