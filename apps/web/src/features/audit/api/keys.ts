import type { AuditLogListBody } from './list-audit-logs';

/** Query keys of the audit log, so no component writes one inline. */
export const auditKeys = {
  all: ['audit'] as const,
  lists: () => [...auditKeys.all, 'list'] as const,
  list: (body: AuditLogListBody) => [...auditKeys.lists(), body] as const,
};
