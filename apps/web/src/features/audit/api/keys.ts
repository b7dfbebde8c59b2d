import type { auditLogListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type AuditLogListBody = z.input<typeof auditLogListQuerySchema>;

/** Query keys of the audit log, so no component writes one inline. */
export const auditKeys = {
  all: ['audit'] as const,
  lists: () => [...auditKeys.all, 'list'] as const,
  list: (body: AuditLogListBody) => [...auditKeys.lists(), body] as const,
};
