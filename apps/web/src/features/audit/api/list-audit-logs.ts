import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AuditLog, ListResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { auditKeys, type AuditLogListBody } from './keys';
import { AUDIT_BASE } from './paths';

export type { AuditLogListBody };

/** The one column `index` sorts by. */
export const AUDIT_SORTS = ['created_at'] as const;

/** POST index → `{data, meta}` of the selected client's records, newest first by default. */
export function fetchAuditLogs(body: AuditLogListBody): Promise<ListResponse<AuditLog>> {
  return api.post<ListResponse<AuditLog>>(`${AUDIT_BASE}/index`, body);
}

export function auditLogsQueryOptions(body: AuditLogListBody) {
  return queryOptions({
    queryKey: auditKeys.list(body),
    queryFn: () => fetchAuditLogs(body),
    placeholderData: keepPreviousData,
  });
}
