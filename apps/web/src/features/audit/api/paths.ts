/** The audit log's base (read only), under the client's `/api`. */
export const AUDIT_BASE = '/rota/audit/api/v1';
